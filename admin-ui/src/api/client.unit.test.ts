import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isApiError } from './apiError.ts';
import { createApiClient } from './client.ts';
import type { Operation } from './operation.ts';

const ME: Operation<{ me: { username: string } }, Record<string, never>> = { name: 'Me', source: 'query Me { me { username } }' };
const LOGIN: Operation<unknown, Record<string, never>> = { name: 'Login', source: 'mutation Login { login }' };

type Call = { url: string; body: string | undefined };

/** A fake server: GraphQL answers UNAUTHENTICATED until a refresh succeeded; refresh answers `refreshStatus`. */
function fakeServer(options: { refreshStatus: number; expired?: 'anonymous' | 'expired' }) {
  const calls: Call[] = [];
  let fresh = false;
  let releaseRefresh: () => void = () => {};
  const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
  const json = (status: number, body: unknown): Response =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, body: typeof init?.body === 'string' ? init.body : undefined });
    if (url === '/api/auth/refresh') {
      await refreshGate;
      if (options.refreshStatus === 200) fresh = true;
      return options.refreshStatus === 200 ? json(200, { expiresIn: 1800 }) : json(401, { code: 'REFRESH_TOKEN_INVALID' });
    }
    if (url === '/graphql') {
      if (fresh) return json(200, { data: { me: { username: 'admin' } } });
      if (options.expired === 'expired')
        return json(401, { errors: [{ message: 'Access token has expired', extensions: { code: 'TOKEN_EXPIRED', statusCode: 401 } }] });
      return json(200, { data: null, errors: [{ message: 'Authentication required', extensions: { code: 'UNAUTHENTICATED', statusCode: 401 } }] });
    }
    return json(404, {});
  }) as typeof fetch;
  return { calls, fetchFn, releaseRefresh };
}

describe('api client', () => {
  test('concurrent 401s share one refresh, then every call is retried once', async () => {
    const server = fakeServer({ refreshStatus: 200, expired: 'expired' });
    let lost = 0;
    const api = createApiClient({ fetch: server.fetchFn, hasSessionFlag: () => true, onSessionLost: () => lost++ });
    const pending = [api.request(ME, {}), api.request(ME, {}), api.request(ME, {})];
    await new Promise((resolve) => setTimeout(resolve, 10));
    server.releaseRefresh();
    const results = await Promise.all(pending);
    assert.deepEqual(results, [{ me: { username: 'admin' } }, { me: { username: 'admin' } }, { me: { username: 'admin' } }]);
    assert.equal(server.calls.filter((c) => c.url === '/api/auth/refresh').length, 1);
    assert.equal(server.calls.filter((c) => c.url === '/graphql').length, 6);
    assert.equal(lost, 0);
  });

  test('a resolver-level UNAUTHENTICATED (cookie expired and dropped) also refreshes', async () => {
    const server = fakeServer({ refreshStatus: 200, expired: 'anonymous' });
    server.releaseRefresh();
    const api = createApiClient({ fetch: server.fetchFn, hasSessionFlag: () => true, onSessionLost: () => assert.fail('session lost') });
    assert.deepEqual(await api.request(ME, {}), { me: { username: 'admin' } });
  });

  test('a failed refresh reports the lost session and rejects with the original error', async () => {
    const server = fakeServer({ refreshStatus: 401 });
    server.releaseRefresh();
    let lost = 0;
    const api = createApiClient({ fetch: server.fetchFn, hasSessionFlag: () => true, onSessionLost: () => lost++ });
    await assert.rejects(api.request(ME, {}), (err: unknown) => isApiError(err, 'UNAUTHENTICATED'));
    assert.equal(lost, 1);
    assert.equal(server.calls.filter((c) => c.url === '/api/auth/refresh').length, 1);
  });

  test('without the svc_session flag there is no refresh; login failures never refresh', async () => {
    const server = fakeServer({ refreshStatus: 200 });
    server.releaseRefresh();
    let lost = 0;
    const api = createApiClient({ fetch: server.fetchFn, hasSessionFlag: () => false, onSessionLost: () => lost++ });
    await assert.rejects(api.request(ME, {}), (err: unknown) => isApiError(err, 'UNAUTHENTICATED'));
    assert.equal(lost, 1);
    const withFlag = createApiClient({ fetch: server.fetchFn, hasSessionFlag: () => true, onSessionLost: () => lost++ });
    await assert.rejects(withFlag.request(LOGIN, {}, { session: false }), (err: unknown) => isApiError(err, 'UNAUTHENTICATED'));
    assert.equal(server.calls.filter((c) => c.url === '/api/auth/refresh').length, 0);
  });

  test('validation details and the retry time reach the caller', async () => {
    const fetchFn = (async () =>
      new Response(
        JSON.stringify({
          data: null,
          errors: [{ message: 'Too many', extensions: { code: 'RATE_LIMITED', statusCode: 429, details: [{ path: '/x', message: 'bad' }] } }],
        }),
        { status: 200, headers: { 'retry-after': '120' } },
      )) as typeof fetch;
    const api = createApiClient({ fetch: fetchFn, hasSessionFlag: () => true, onSessionLost: () => {} });
    await assert.rejects(api.request(LOGIN, {}), (err: unknown) => {
      assert.ok(isApiError(err, 'RATE_LIMITED'));
      assert.equal(err.retryAfterSeconds, 120);
      assert.deepEqual(err.details, [{ path: '/x', message: 'bad' }]);
      return true;
    });
  });

  test('a batch sends one request with a renamed copy per entry and answers in order', async () => {
    const sent: { query: string; variables: Record<string, unknown> }[] = [];
    const fetchFn = (async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)) as { query: string; variables: Record<string, unknown> });
      return new Response(JSON.stringify({ data: { b_0_revision: { sequence: 3 }, b_1_revision: { sequence: 7 } } }), { status: 200 });
    }) as typeof fetch;
    const REVISION: Operation<{ revision: { sequence: number } }, { data: { revisionId: string } }> = {
      name: 'RevisionSequence',
      source: '',
      batch: {
        kind: 'query',
        variables: ['data'],
        definitions: '$data__I__:GetRevisionInput!',
        selections: 'b__I___revision:revision(data:$data__I__){sequence}',
        fragments: '',
      },
    };
    const api = createApiClient({ fetch: fetchFn, hasSessionFlag: () => true, onSessionLost: () => {} });
    const answers = await api.batch(REVISION, [{ data: { revisionId: 'r1' } }, { data: { revisionId: 'r2' } }]);
    assert.deepEqual(answers, [{ revision: { sequence: 3 } }, { revision: { sequence: 7 } }]);
    assert.deepEqual(sent, [
      {
        query:
          'query RevisionSequence($data_0:GetRevisionInput!,$data_1:GetRevisionInput!){b_0_revision:revision(data:$data_0){sequence} b_1_revision:revision(data:$data_1){sequence}}',
        variables: { data_0: { revisionId: 'r1' }, data_1: { revisionId: 'r2' } },
      },
    ]);
    assert.deepEqual(await api.batch(REVISION, []), [], 'nothing to ask, no request');
    assert.equal(sent.length, 1);
  });
  test('upload sends the file with its content type, refreshes once on a 401, and rejects with the code and details', async () => {
    const sent: { url: string; type: string | null; body: string }[] = [];
    let fresh = false;
    const json = (status: number, body: unknown): Response =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/auth/refresh') {
        fresh = true;
        return json(200, {});
      }
      sent.push({ url, type: new Headers(init?.headers).get('content-type'), body: init?.body instanceof Blob ? await init.body.text() : '' });
      if (!fresh) return json(401, { code: 'TOKEN_EXPIRED', message: 'expired' });
      if (url.includes('dryRun=true')) return json(200, { processed: 2, invalid: 0 });
      return json(400, {
        code: 'IMPORT_INVALID',
        message: '1 of 2 lines are invalid',
        details: [{ path: '/line/2', message: 'INVALID_DATA at /n' }],
      });
    }) as typeof fetch;
    const api = createApiClient({ fetch: fetchFn, hasSessionFlag: () => true, onSessionLost: () => assert.fail('session lost') });
    const file = new Blob(['{"id":"a","data":{}}\n{"id":"b","data":1}\n']);
    assert.deepEqual(await api.upload('/api/x/import?dryRun=true', file, 'application/x-ndjson'), { processed: 2, invalid: 0 });
    assert.deepEqual(
      sent.map((c) => [c.url, c.type]),
      [
        ['/api/x/import?dryRun=true', 'application/x-ndjson'],
        ['/api/x/import?dryRun=true', 'application/x-ndjson'],
      ],
    );
    assert.equal(sent[1]?.body, '{"id":"a","data":{}}\n{"id":"b","data":1}\n', 'the retry sends the whole file again');
    await assert.rejects(api.upload('/api/x/import', file, 'application/x-ndjson'), (err) => {
      assert.ok(isApiError(err, 'IMPORT_INVALID'));
      assert.deepEqual(err.details, [{ path: '/line/2', message: 'INVALID_DATA at /n' }]);
      return true;
    });
  });
});
