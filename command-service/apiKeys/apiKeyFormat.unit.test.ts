import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { API_KEY_ALPHABET, generateApiKey, hashApiKey } from './apiKeyFormat.ts';
import { API_KEY_PATTERN } from '../sessions/selectCredential.ts';

test('svc_ + 22 base-62 characters; prefix = svc_ + the first 6; SHA-256 hex at rest', () => {
  const { secret, prefix, secretHash } = generateApiKey();
  assert.match(secret, API_KEY_PATTERN);
  assert.equal(prefix, secret.slice(0, 10));
  assert.equal(secretHash, createHash('sha256').update(secret).digest('hex'));
  assert.equal(hashApiKey(secret), secretHash);
  assert.match(secretHash, /^[0-9a-f]{64}$/);
  assert.notEqual(generateApiKey().secret, secret);
});

test('each character is one uniform draw below 62 (no modulo reduction of our own)', () => {
  const bounds: number[] = [];
  let next = 0;
  const { secret } = generateApiKey((max) => {
    bounds.push(max);
    return next++ % max;
  });
  assert.deepEqual(
    bounds,
    Array.from({ length: 22 }, () => 62),
  );
  assert.equal(secret, `svc_${API_KEY_ALPHABET.slice(0, 22)}`);
  assert.equal(API_KEY_ALPHABET.length, 62);
  assert.equal(new Set(API_KEY_ALPHABET).size, 62);
});

test('distribution sanity: every character occurs, none far from uniform', () => {
  const counts = new Map<string, number>();
  const keys = 3000;
  for (let i = 0; i < keys; i++) {
    for (const ch of generateApiKey().secret.slice(4)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(counts.size, 62);
  const expected = (keys * 22) / 62;
  // Pearson chi-square with 61 degrees of freedom: 120 is far beyond any plausible uniform sample (p < 1e-5).
  let chiSquare = 0;
  for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected;
  assert.ok(chiSquare < 120, `chi-square ${chiSquare.toFixed(1)}`);
});
