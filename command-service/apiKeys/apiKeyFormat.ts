import { createHash, randomInt } from 'node:crypto';

/** Alphabet of the random part of a key (auth.md §8.1). */
export const API_KEY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_RANDOM_LENGTH = 22;
const PREFIX = 'svc_';
/** Random characters shown in a key's display prefix (`svc_` + 6). */
const PREFIX_RANDOM_LENGTH = 6;

export type GeneratedApiKey = {
  /** The full key; returned once by create/rotate, never stored or logged. */
  readonly secret: string;
  readonly prefix: string;
  readonly secretHash: string;
};

/** SHA-256 hex digest of the full key: what is stored and looked up. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** `svc_` + 22 characters, each drawn uniformly with crypto.randomInt(62) (no modulo bias). */
export function generateApiKey(draw: (max: number) => number = randomInt): GeneratedApiKey {
  let random = '';
  for (let i = 0; i < API_KEY_RANDOM_LENGTH; i++) random += API_KEY_ALPHABET[draw(API_KEY_ALPHABET.length)];
  const secret = `${PREFIX}${random}`;
  return { secret, prefix: `${PREFIX}${random.slice(0, PREFIX_RANDOM_LENGTH)}`, secretHash: hashApiKey(secret) };
}
