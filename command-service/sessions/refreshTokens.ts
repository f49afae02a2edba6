import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** HKDF `info` of the refresh-token MAC key (auth.md §7.1). */
export const REFRESH_TOKEN_KEY_INFO = 'strata/refresh/v1';
const TOKEN_ID_BYTES = 16;
const KEY_BYTES = 32;
/** `<id>.<mac>`: 22 base64url characters (16 bytes), a dot, 43 base64url characters (32 bytes). */
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** K = HKDF-SHA256(JWT_SECRET, salt empty, info `strata/refresh/v1`, 32 bytes). */
export function deriveRefreshKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(jwtSecret, 'utf8'), Buffer.alloc(0), REFRESH_TOKEN_KEY_INFO, KEY_BYTES));
}

export type RefreshTokenCodec = {
  /** A fresh token id: 16 random bytes, base64url (22 characters). */
  newTokenId(): string;
  /** The token `<id>.<mac>` of an id: the same id gives the same bytes on every replica sharing JWT_SECRET. */
  format(tokenId: string): string;
  /** The id of a well-formed token whose MAC is right (compared in constant time), else null. */
  parse(token: string): string | null;
};

/**
 * Refresh tokens are `<id>.<mac>` with mac = base64url(HMAC-SHA256(K, id)) over the id's text. Only ids are
 * stored; because the MAC is a function of the id, the successor token recorded by a rotation can be re-created
 * byte for byte by any replica (duplicate refreshes, auth.md §7.2 row 6).
 */
export function createRefreshTokenCodec(jwtSecret: string): RefreshTokenCodec {
  const key = deriveRefreshKey(jwtSecret);
  const macOf = (tokenId: string): string => createHmac('sha256', key).update(tokenId, 'utf8').digest('base64url');
  return {
    newTokenId: () => randomBytes(TOKEN_ID_BYTES).toString('base64url'),
    format: (tokenId) => `${tokenId}.${macOf(tokenId)}`,
    parse(token) {
      const match = TOKEN_PATTERN.exec(token);
      if (!match) return null;
      const tokenId = match[1] as string;
      // Comparing the text (not decoded bytes) also rejects non-canonical base64url spellings of the right MAC.
      const expected = Buffer.from(macOf(tokenId), 'ascii');
      const presented = Buffer.from(match[2] as string, 'ascii');
      return expected.length === presented.length && timingSafeEqual(expected, presented) ? tokenId : null;
    },
  };
}
