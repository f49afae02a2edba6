import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request, Response } from 'express';
import { createSessionCookies, refreshTokenOf } from './sessionCookies.ts';

function fakeResponse(): { res: Response; cookies: string[] } {
  const cookies: string[] = [];
  const res = {
    append(name: string, value: string | string[]) {
      assert.equal(name, 'Set-Cookie');
      cookies.push(...(Array.isArray(value) ? value : [value]));
      return res;
    },
  };
  return { res: res as unknown as Response, cookies };
}

describe('session cookies (auth.md §4)', () => {
  test('login/refresh set the three cookies with their paths, HttpOnly, Max-Age and SameSite', () => {
    const { res, cookies } = fakeResponse();
    createSessionCookies().set(res, { accessToken: 'a.b.c', expiresIn: 1800, refreshToken: 'id.mac', refreshMaxAgeSeconds: 604_800 });
    assert.deepEqual(cookies, [
      'svc_at=a.b.c; Path=/; Max-Age=1800; HttpOnly; SameSite=Lax',
      'svc_rt=id.mac; Path=/api/auth/; Max-Age=604800; HttpOnly; SameSite=Lax',
      'svc_session=1; Path=/; Max-Age=604800; SameSite=Lax',
    ]);
  });

  test('COOKIE_SECURE adds Secure; COOKIE_SAMESITE picks the attribute; never a Domain', () => {
    const { res, cookies } = fakeResponse();
    createSessionCookies({ secure: true, sameSite: 'none' }).set(res, {
      accessToken: 't',
      expiresIn: 60,
      refreshToken: 'r',
      refreshMaxAgeSeconds: 10.9,
    });
    assert.equal(cookies[0], 'svc_at=t; Path=/; Max-Age=60; HttpOnly; SameSite=None; Secure');
    assert.equal(cookies[1], 'svc_rt=r; Path=/api/auth/; Max-Age=10; HttpOnly; SameSite=None; Secure');
    assert.ok(cookies.every((cookie) => !/domain/i.test(cookie)));
  });

  test('clearing repeats name, Path, SameSite and Secure with an empty value, Max-Age=0 and the epoch', () => {
    const { res, cookies } = fakeResponse();
    createSessionCookies({ secure: true, sameSite: 'strict' }).clear(res);
    const epoch = 'Expires=Thu, 01 Jan 1970 00:00:00 GMT';
    assert.deepEqual(cookies, [
      `svc_at=; Path=/; Max-Age=0; ${epoch}; HttpOnly; SameSite=Strict; Secure`,
      `svc_rt=; Path=/api/auth/; Max-Age=0; ${epoch}; HttpOnly; SameSite=Strict; Secure`,
      `svc_session=; Path=/; Max-Age=0; ${epoch}; SameSite=Strict; Secure`,
    ]);
  });

  test('an authenticator without refresh families sets only svc_at', () => {
    const { res, cookies } = fakeResponse();
    createSessionCookies().set(res, { accessToken: 't', expiresIn: 60 });
    assert.deepEqual(cookies, ['svc_at=t; Path=/; Max-Age=60; HttpOnly; SameSite=Lax']);
  });

  test('refreshTokenOf reads the first svc_rt only', () => {
    const req = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as Request;
    assert.equal(refreshTokenOf(req()), null);
    assert.equal(refreshTokenOf(req('svc_at=x; svc_rt=first; svc_rt=second')), 'first');
    assert.equal(refreshTokenOf(req('svc_session=1')), null);
  });
});
