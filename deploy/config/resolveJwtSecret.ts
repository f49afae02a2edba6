import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { StrataConfig } from './strataConfig.ts';

export const JWT_SECRET_FILE = 'jwt-secret';

function isUsable(secret: string): boolean {
  return Buffer.byteLength(secret, 'utf8') >= 32;
}

async function readStored(file: string): Promise<string | null> {
  try {
    const secret = (await readFile(file, 'utf8')).trim();
    return isUsable(secret) ? secret : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * The configured JWT_SECRET, else (development) the secret stored in DATA_DIR/jwt-secret, generated once with mode
 * 0600 so restarts keep sessions. Several processes sharing DATA_DIR agree on one secret: the complete file is
 * linked into place atomically, and a loser of that race reads the winner's file.
 */
export async function resolveJwtSecret(config: StrataConfig, log?: Logger): Promise<string> {
  if (config.jwtSecret !== null) return config.jwtSecret;
  const file = join(config.dataDir, JWT_SECRET_FILE);
  const stored = await readStored(file);
  if (stored !== null) return stored;
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, file);
    log?.info({ file }, 'generated development jwt secret');
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const raced = await readStored(file);
    if (raced !== null) return raced;
    // An unusable file (empty or too short) written by hand: replace it.
    await rename(temp, file);
    log?.warn({ file }, 'replaced unusable development jwt secret');
    return secret;
  } finally {
    await rm(temp, { force: true });
  }
}
