import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/**
 * Random bytes drawn 4 KiB at a time and handed out once each: one `randomBytes(16)` per event cost about as much
 * as the rest of building it (a CPU profile of single-row creates), and `randomInt` per id character likewise.
 */
const pool = Buffer.allocUnsafe(4096);
let taken = pool.length;

function randomBytesOf(length: number): Buffer {
  if (taken + length > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const bytes = pool.subarray(taken, taken + length);
  taken += length;
  return bytes;
}

/**
 * A 21-character random id (spec README: opaque ids). The alphabet has 64 characters, so the low 6 bits of a
 * random byte pick one without modulo bias.
 */
export function newId(): string {
  const bytes = randomBytesOf(21);
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[(bytes[i] as number) & 63];
  return id;
}

/**
 * A UUID version 7 (RFC 9562): 48-bit millisecond timestamp then random bits. Event ids use it because ids that
 * grow with time keep the event log's unique index append-only (random ids cost ~2-3x in batched append throughput)
 * and because KurrentDB requires UUID event ids.
 */
export function newEventId(now: number = Date.now()): string {
  const bytes = randomBytesOf(16);
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
