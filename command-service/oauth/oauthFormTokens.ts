import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../contracts/index.ts';

/** How long a consent form may stay open before Allow is refused. */
const FORM_TOKEN_TTL_MS = 1_800_000;
const KEY_INFO = 'strata/oauth-consent/v1';

/**
 * Anti-forgery tokens of the consent form (oauth.md §4): `<expiry>.<mac>` with mac = HMAC-SHA256(K, expiry + binding),
 * K derived from JWT_SECRET. Stateless, so every replica can check them; the binding names the browser session and
 * the authorization request, so a token lifted from one page is useless for another user or request.
 */
export function createOAuthFormTokens(secret: string, clock: Clock) {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), KEY_INFO, 32));
  const macOf = (expiry: string, binding: string): string => createHmac('sha256', key).update(`${expiry}\n${binding}`, 'utf8').digest('base64url');
  return {
    formToken(binding: string): string {
      const expiry = String(clock.now() + FORM_TOKEN_TTL_MS);
      return `${expiry}.${macOf(expiry, binding)}`;
    },
    isFormToken(token: string, binding: string): boolean {
      const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match || Number(match[1]) < clock.now()) return false;
      const expected = Buffer.from(macOf(match[1] as string, binding), 'ascii');
      const presented = Buffer.from(match[2] as string, 'ascii');
      return expected.length === presented.length && timingSafeEqual(expected, presented);
    },
  };
}
