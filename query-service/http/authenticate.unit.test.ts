import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request, Response } from 'express';
import { AppError, isAppError, type Authenticator, type PresentedCredentials, type Principal } from '../../contracts/index.ts';
import { authenticateRequest, cookieValues, presentedCredentials, requestContextOf } from './authenticate.ts';

function request(url: string, headers: Record<string, string | string[]> = {}): Request {
  return { originalUrl: url, url, headers } as unknown as Request;
}

function response(): Response {
  return { locals: { requestId: 'req-1' } } as unknown as Response;
}

const user: Principal = { kind: 'user', userId: 'u1', username: 'ann', via: 'jwt', sid: 's1', key: null };

function authenticator(result: Principal | AppError): Authenticator & { seen: PresentedCredentials[] } {
  const seen: PresentedCredentials[] = [];
  return {
    seen,
    async authenticate(credentials) {
      seen.push(credentials);
      if (result instanceof AppError) throw result;
      return result;
    },
    login: () => Promise.reject(new Error('unused')),
    issueAccessToken: () => Promise.reject(new Error('unused')),
  };
}

describe('presentedCredentials', () => {
  test('collects Authorization, X-Api-Key, api_key and every svc_at cookie', () => {
    const credentials = presentedCredentials(
      request('/api/me?x=1&api_key=svc_abc', {
        authorization: 'Bearer t',
        'x-api-key': 'svc_k',
        cookie: 'a=1; svc_at=first; svc_rt=r; svc_at="second"',
      }),
    );
    assert.deepEqual(credentials, {
      authorization: 'Bearer t',
      apiKeyHeader: 'svc_k',
      apiKeyQuery: 'svc_abc',
      accessTokenCookies: ['first', 'second'],
    });
    assert.deepEqual(presentedCredentials(request('/api/me')), {
      authorization: null,
      apiKeyHeader: null,
      apiKeyQuery: null,
      accessTokenCookies: [],
    });
  });

  test('a repeated or non-string api_key is 400 BAD_REQUEST', () => {
    for (const url of ['/api/me?api_key=a&api_key=b', '/api/me?api_key[]=a', '/api/me?api_key[x]=a']) {
      assert.throws(
        () => presentedCredentials(request(url)),
        (err) => isAppError(err, 'BAD_REQUEST'),
        url,
      );
    }
  });

  test('cookieValues reads several Cookie headers and ignores similar names', () => {
    assert.deepEqual(cookieValues(['svc_at=a', 'xsvc_at=b; svc_at =c'], 'svc_at'), ['a', 'c']);
    assert.deepEqual(cookieValues(undefined, 'svc_at'), []);
  });
});

describe('authenticateRequest', () => {
  test('stores the principal and its log reference', async () => {
    const res = response();
    await authenticateRequest(authenticator(user), request('/api/me', { authorization: 'Bearer t' }), res);
    assert.deepEqual(res.locals.principal, user);
    assert.equal(res.locals.principalRef, 'user:u1');
    assert.deepEqual(requestContextOf(res), { principal: user, requestId: 'req-1' });
  });

  test('a failing presented credential gets the invalid_token challenge', async () => {
    const res = response();
    await assert.rejects(
      authenticateRequest(authenticator(new AppError('TOKEN_EXPIRED')), request('/api/me', { cookie: 'svc_at=x' }), res),
      (err) => isAppError(err, 'TOKEN_EXPIRED') && err.headers?.['WWW-Authenticate'] === 'Bearer realm="strata", error="invalid_token"',
    );
    assert.equal(res.locals.principal, undefined);
    await assert.rejects(
      authenticateRequest(
        authenticator(new AppError('AMBIGUOUS_CREDENTIALS')),
        request('/api/me', { authorization: 'Bearer a', 'x-api-key': 'b' }),
        res,
      ),
      (err) => isAppError(err, 'AMBIGUOUS_CREDENTIALS') && err.headers === undefined,
    );
  });

  test('without credentials the request is anonymous', async () => {
    const res = response();
    const auth = authenticator({ kind: 'anonymous' });
    await authenticateRequest(auth, request('/api/me'), res);
    assert.equal(res.locals.principalRef, 'anonymous');
    assert.equal(requestContextOf(response()).principal.kind, 'anonymous');
  });
});
