import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A 21-character random id (spec README: opaque ids), drawn without modulo bias. */
export function newId(): string {
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/**
 * A UUID version 7 (RFC 9562): 48-bit millisecond timestamp then random bits. Event ids use it because ids that
 * grow with time keep the event log's unique index append-only (random ids cost ~2-3x in batched append throughput)
 * and because KurrentDB requires UUID event ids.
 */
export function newEventId(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
