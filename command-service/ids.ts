import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A 21-character random id (spec README: opaque ids), drawn without modulo bias. */
export function newId(): string {
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
