import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './loadConfig.ts';
import { JWT_SECRET_FILE, resolveJwtSecret } from './resolveJwtSecret.ts';

const root = await mkdtemp(join(tmpdir(), 'strata-jwt-'));
after(() => rm(root, { recursive: true, force: true }));

describe('resolveJwtSecret', () => {
  test('returns the configured secret without touching DATA_DIR', async () => {
    const dataDir = join(root, 'configured');
    const secret = 's'.repeat(40);
    assert.equal(await resolveJwtSecret(loadConfig({ JWT_SECRET: secret, DATA_DIR: dataDir })), secret);
    await assert.rejects(stat(dataDir), { code: 'ENOENT' });
  });

  test('generates a 0600 secret once (creating DATA_DIR) and reuses it', async () => {
    const dataDir = join(root, 'nested', 'data');
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = await resolveJwtSecret(config);
    assert.ok(Buffer.byteLength(first) >= 32);
    const info = await stat(join(dataDir, JWT_SECRET_FILE));
    assert.equal(info.mode & 0o777, 0o600);
    assert.equal(await resolveJwtSecret(config), first);
  });

  test('concurrent first starts agree on one secret', async () => {
    const config = loadConfig({ DATA_DIR: join(root, 'race') });
    const secrets = await Promise.all([1, 2, 3, 4].map(() => resolveJwtSecret(config)));
    assert.equal(new Set(secrets).size, 1);
    assert.equal((await readFile(join(root, 'race', JWT_SECRET_FILE), 'utf8')).trim(), secrets[0]);
  });

  test('replaces an unusable stored secret', async () => {
    const dataDir = join(root, 'short');
    await resolveJwtSecret(loadConfig({ DATA_DIR: dataDir }));
    await writeFile(join(dataDir, JWT_SECRET_FILE), 'tiny\n');
    const secret = await resolveJwtSecret(loadConfig({ DATA_DIR: dataDir }));
    assert.notEqual(secret, 'tiny');
    assert.equal((await readFile(join(dataDir, JWT_SECRET_FILE), 'utf8')).trim(), secret);
  });
});
