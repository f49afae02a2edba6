import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { REFRESH_TOKEN_KEY_INFO, createRefreshTokenCodec, deriveRefreshKey } from './refreshTokens.ts';

const secret = 'a-refresh-test-secret-with-32-bytes-at-least';

/** RFC 5869 written out with HMAC (empty salt = HashLen zero bytes), to check the derivation independently. */
function referenceHkdf(ikm: string, info: string, length: number): Buffer {
  const prk = createHmac('sha256', Buffer.alloc(32)).update(ikm, 'utf8').digest();
  let previous = Buffer.alloc(0);
  const blocks: Buffer[] = [];
  for (let i = 1; Buffer.concat(blocks).length < length; i++) {
    previous = createHmac('sha256', prk)
      .update(Buffer.concat([previous, Buffer.from(info, 'utf8'), Buffer.from([i])]))
      .digest();
    blocks.push(previous);
  }
  return Buffer.concat(blocks).subarray(0, length);
}

describe('refresh token format (auth.md §7.1)', () => {
  test('K = HKDF-SHA256(JWT_SECRET, info strata/refresh/v1, 32 bytes)', () => {
    assert.equal(REFRESH_TOKEN_KEY_INFO, 'strata/refresh/v1');
    const key = deriveRefreshKey(secret);
    assert.equal(key.length, 32);
    assert.deepEqual(key, referenceHkdf(secret, 'strata/refresh/v1', 32));
    assert.notDeepEqual(deriveRefreshKey(`${secret}x`), key);
  });

  test('<id>.<mac>: 16 random bytes base64url, then base64url(HMAC-SHA256(K, id))', () => {
    const codec = createRefreshTokenCodec(secret);
    const id = codec.newTokenId();
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(Buffer.from(id, 'base64url').length, 16);
    const token = codec.format(id);
    assert.match(token, /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const mac = createHmac('sha256', deriveRefreshKey(secret)).update(id).digest('base64url');
    assert.equal(token, `${id}.${mac}`);
    assert.equal(codec.parse(token), id);
    assert.notEqual(codec.newTokenId(), id);
  });

  test('the same id gives the byte-identical token on another replica; another secret rejects it', () => {
    const codec = createRefreshTokenCodec(secret);
    const id = codec.newTokenId();
    assert.equal(createRefreshTokenCodec(secret).format(id), codec.format(id));
    assert.equal(createRefreshTokenCodec(`${secret}-rotated`).parse(codec.format(id)), null);
  });

  test('malformed tokens and wrong MACs are rejected', () => {
    const codec = createRefreshTokenCodec(secret);
    const id = codec.newTokenId();
    const token = codec.format(id);
    const [, mac] = token.split('.') as [string, string];
    const flipped = `${id}.${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    const otherId = codec.newTokenId();
    const lastChar = mac.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [
      '',
      id,
      `${id}.`,
      `${token}.x`,
      `${token}=`,
      ` ${token}`,
      flipped,
      `${otherId}.${mac}`,
      `${id}.${mac.slice(0, -1)}${lastChar}`,
      `${id.slice(1)}.${mac}`,
      `${id}.${mac}A`,
      `${id}+${mac}`,
    ]) {
      assert.equal(codec.parse(bad), null, bad);
    }
  });
});
