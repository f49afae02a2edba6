import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/** scrypt cost of domain.md §1: N = 2^15, r = 8, p = 1, 16-byte salt; 64-byte key. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 64;
const PREFIX = 'scrypt';

/** scrypt needs 128 * N * r bytes; Node's default maxmem (32 MiB) is exactly that for these parameters, so raise it. */
function maxmemFor(N: number, r: number): number {
  return 256 * N * r;
}

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: maxmemFor(params.N, params.r) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Self-describing hash: `scrypt$N=32768,r=8,p=1$<salt base64>$<key base64>`; parameters can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, SCRYPT_PARAMS, KEY_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  return `${PREFIX}$N=${N},r=${r},p=${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

type ParsedHash = { params: { N: number; r: number; p: number }; salt: Buffer; key: Buffer };

function parseHash(hash: string): ParsedHash | null {
  const parts = hash.split('$');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const params = /^N=(\d+),r=(\d+),p=(\d+)$/.exec(parts[1] ?? '');
  if (!params) return null;
  const [N, r, p] = [Number(params[1]), Number(params[2]), Number(params[3])];
  // Refuse parameters no hash of ours has: a corrupted or planted hash must not make verification hang.
  if (!Number.isInteger(Math.log2(N)) || N < 2 || N > 2 ** 20 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[2] ?? '', 'base64');
  const key = Buffer.from(parts[3] ?? '', 'base64');
  if (salt.length === 0 || key.length < 16 || key.length > 128) return null;
  return { params: { N, r, p }, salt, key };
}

/** Constant-time comparison of the derived key; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parseHash(hash);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/**
 * A verifier that also burns the same work for unknown users (auth.md §3: comparable timing). The dummy hash is
 * made once per verifier, lazily, from a random password nobody knows.
 */
export function createPasswordVerifier(): {
  verify(password: string, hash: string | null): Promise<boolean>;
} {
  let dummy: Promise<string> | null = null;
  return {
    async verify(password, hash) {
      if (hash !== null) return verifyPassword(password, hash);
      dummy ??= hashPassword(randomBytes(24).toString('base64'));
      await verifyPassword(password, await dummy);
      return false;
    },
  };
}
