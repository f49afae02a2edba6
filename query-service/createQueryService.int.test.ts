import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createQueryService } from './createQueryService.ts';
import { commonHeaders, errorHandler, notFound, requestLogger } from './index.ts';
import { newApp, serve } from './testing/testServer.ts';
import {
  FAKE_POSITION,
  fakeAuthenticator,
  fakeGateway,
  fakeOperations,
  fakeWaiter,
  type CommandCall,
  type ReadCall,
} from './testing/queryServiceFakes.ts';

const reads: ReadCall[] = [];
const commands: CommandCall[] = [];
const authenticator = fakeAuthenticator();
const waiter = fakeWaiter();
const service = createQueryService({
  viewStore: {} as never,
  systemState: {} as never,
  operations: fakeOperations(reads),
  gateway: fakeGateway(commands),
  authenticator,
  waiter,
  eventStoreBackend: 'sqlite',
  log: pino({ level: 'silent' }),
  config: { writeConsistency: 'projected', consistencyTimeoutMs: 100, bodyLimitBytes: 64 * 1024, bodyLimitText: '64kb' },
});
let base = '';
let close: () => Promise<void> = async () => {};

before(async () => {
  await service.start();
  const app = newApp();
  app.use(commonHeaders, requestLogger(pino({ level: 'silent' })), service.router, notFound, errorHandler);
  ({ url: base, close } = await serve(app));
});
after(async () => {
  await close();
  await service.stop();
});

const auth = { Authorization: 'Bearer good' };
const json = { 'Content-Type': 'application/json' };
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = auth) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : json), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { res, status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
}
const gql = (query: string, variables?: unknown, headers: Record<string, string> = auth) => call('POST', '/graphql', { query, variables }, headers);

describe('system REST edge', () => {
  test('reads pass path ids and typed query parameters; connections carry totalCount', async () => {
    const { status, body, res } = await call(
      'GET',
      '/api/revision/r1/table/posts/rows?first=5&where=%7B%22id%22%3A%7B%22equals%22%3A%22a%22%7D%7D&api_key_unused=1',
    );
    assert.equal(status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(body?.totalCount, 1);
    assert.deepEqual(reads.at(-1), {
      name: 'rows',
      args: { first: 5, where: { id: { equals: 'a', mode: 'default' } }, revisionId: 'r1', tableId: 'posts' },
    });
  });

  test('bad query parameters and bodies are 400 BAD_USER_INPUT with pointers', async () => {
    const bad = await call('GET', '/api/revision/r1/table/posts/rows?first=ten&where=%7Bnope');
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body?.details, [{ path: '/where', message: 'where must be URL-encoded JSON' }]);
    const typed = await call('GET', '/api/revision/r1/table/posts/rows?first=ten');
    assert.deepEqual(typed.body?.details, [{ path: '/first', message: 'first must be an integer' }]);
    const body = await call('POST', '/api/revision/r1/table/posts/rows', { rowId: 1, extra: 2 });
    assert.equal(body.body?.code, 'BAD_USER_INPUT');
    assert.deepEqual(body.body?.details, [
      { path: '/extra', message: 'extra is not a known field' },
      { path: '/rowId', message: 'rowId must be a string' },
      { path: '/data', message: 'data is required' },
    ]);
  });

  test('writes run one command and answer with the position and consistency', async () => {
    const { status, body, res } = await call(
      'POST',
      '/api/revision/r1/table/posts/rows',
      { rowId: 'a', data: { x: [1] } },
      { ...auth, 'X-Request-Id': 'w-1' },
    );
    assert.equal(status, 201);
    assert.equal(body?.id, 'a');
    assert.equal(res.headers.get('x-strata-position'), FAKE_POSITION);
    assert.equal(res.headers.get('x-strata-consistency'), 'projected');
    assert.deepEqual(commands.at(-1)?.input, { revisionId: 'r1', tableId: 'posts', rows: [{ rowId: 'a', data: { x: [1] } }], bulk: false });
    assert.equal(commands.at(-1)?.correlationId, 'w-1');
    assert.deepEqual(waiter.waits.at(-1), { position: FAKE_POSITION, projections: ['catalog'] });
    const bulk = await call('POST', '/api/revision/r1/table/posts/rows/bulk', {
      rows: [
        { rowId: 'a', data: {} },
        { rowId: 'b', data: {} },
      ],
    });
    assert.equal(bulk.status, 201);
    assert.deepEqual(
      (bulk.body?.rows as { id: string }[]).map((r) => r.id),
      ['a', 'b'],
    );
    const deleted = await call('DELETE', '/api/revision/r1/table/posts/row/a');
    assert.deepEqual(deleted.body, { success: true });
    const deletedMany = await call('DELETE', '/api/revision/r1/table/posts/rows/bulk', { rowIds: ['a', 'b'] });
    assert.deepEqual(deletedMany.body, { success: true, count: 2 });
  });

  test('unknown paths are 404, undefined methods 405 with Allow, HEAD works like GET', async () => {
    const missing = await call('GET', '/api/nope/nothing');
    assert.equal(missing.status, 404);
    assert.equal(missing.body?.code, 'ROUTE_NOT_FOUND');
    const wrong = await call('PUT', '/api/revision/r1/table/posts/rows', {});
    assert.equal(wrong.status, 405);
    assert.equal(wrong.res.headers.get('allow'), 'GET, HEAD, POST');
    const bulkGet = await call('GET', '/api/revision/r1/table/posts/rows/bulk');
    assert.equal(bulkGet.res.headers.get('allow'), 'POST, PUT, PATCH, DELETE');
    const head = await call('HEAD', '/api/organization/acme/project/blog');
    assert.equal(head.status, 200);
    assert.equal(head.body, null);
    assert.equal(head.res.headers.get('content-type'), 'application/json; charset=utf-8');
  });

  test('credentials: invalid ones are 401 with the invalid_token challenge, none is anonymous', async () => {
    const expired = await call('GET', '/api/me', undefined, { Authorization: 'Bearer old' });
    assert.equal(expired.status, 401);
    assert.equal(expired.body?.code, 'TOKEN_EXPIRED');
    assert.equal(expired.res.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"');
    const anonymous = await call('GET', '/api/me', undefined, {});
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.res.headers.get('www-authenticate'), 'Bearer realm="strata"');
    const twice = await call('GET', '/api/me?api_key=a&api_key=b', undefined, {});
    assert.equal(twice.status, 400);
    assert.equal(twice.body?.code, 'BAD_REQUEST');
  });

  test('login ignores presented credentials and uses the client IP', async () => {
    const ok = await call('POST', '/api/auth/login', { username: 'ann', password: 'secret' }, { Authorization: 'Bearer broken' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { accessToken: 'jwt', expiresIn: 1800 });
    assert.equal(authenticator.logins.at(-1)?.clientIp, '127.0.0.1');
    const wrong = await call('POST', '/api/auth/login', { username: 'ann', password: 'nope' }, {});
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body?.code, 'INVALID_CREDENTIALS');
  });

  test('documentation is public: Swagger UI with local assets and the OpenAPI document', async () => {
    const page = await fetch(`${base}/api`, { headers: { Authorization: 'Bearer broken' } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /src="\/api\/swagger-ui\/swagger-ui-bundle\.js"/);
    assert.doesNotMatch(html, /(src|href)="https?:/);
    const init = await (await fetch(`${base}/api/swagger-ui/swagger-ui-init.js`)).text();
    assert.match(init, /"validatorUrl": null/);
    assert.match(init, /"swaggerUrl": "\/api\/openapi.json"/);
    assert.equal((await fetch(`${base}/api/swagger-ui/swagger-ui-bundle.js`)).status, 200);
    assert.equal((await fetch(`${base}/api/swagger-ui/index.html`)).status, 404);
    const doc = await call('GET', '/api/openapi.json', undefined, {});
    assert.equal(doc.body?.openapi, '3.1.0');
  });
});

describe('system GraphQL edge', () => {
  test('queries read through the operations; nested fields resolve; totalCount is lazy', async () => {
    const { status, body } = await gql(
      `{ revision(data: {revisionId: "r1"}) { id tables { totalCount edges { node { id foreignKeysTo rows(data: {first: 2}) { edges { node { id } } } } } } } }`,
    );
    assert.equal(status, 200);
    assert.deepEqual(body, {
      data: {
        revision: {
          id: 'r1',
          tables: { totalCount: 1, edges: [{ node: { id: 'posts', foreignKeysTo: ['comments'], rows: { edges: [{ node: { id: 'hello' } }] } } }] },
        },
      },
    });
    assert.deepEqual(reads.find((r) => r.name === 'foreignKeysTo')?.args, { revisionId: 'r1', tableId: 'posts' });
  });

  test('mutations run commands, wait, and report extensions.position', async () => {
    const { status, body } = await gql(
      `mutation { createRow(data: {revisionId: "r1", tableId: "posts", rowId: "x", data: {a: [1, {b: null}]}}) { id } deleteRow(data: {revisionId: "r1", tableId: "posts", rowId: "x"}) }`,
    );
    assert.equal(status, 200);
    assert.deepEqual(body, { data: { createRow: { id: 'x' }, deleteRow: true }, extensions: { position: FAKE_POSITION } });
    const created = commands.find((c) => c.type === 'CreateRows' && (c.input as { rows: { rowId: string }[] }).rows[0]?.rowId === 'x');
    assert.equal(Object.getPrototypeOf((created?.input as { rows: { data: object }[] }).rows[0]?.data), Object.prototype);
  });

  test('resolver errors are HTTP 200 with code, statusCode and null data', async () => {
    const { status, body } = await gql(`{ project(data: {organizationId: "acme", projectName: "nope"}) { id } }`);
    assert.equal(status, 200);
    assert.deepEqual(body, {
      errors: [
        {
          message: 'Project "nope" not found',
          locations: [{ line: 1, column: 3 }],
          path: ['project'],
          extensions: { code: 'PROJECT_NOT_FOUND', statusCode: 404 },
        },
      ],
      data: null,
    });
    const login = await gql(`mutation { login(data: {username: "ann", password: "bad"}) { accessToken } }`);
    assert.equal((login.body?.errors as { extensions: { code: string } }[])[0]?.extensions.code, 'INVALID_CREDENTIALS');
  });

  test('failures before execution set the HTTP status and have no data', async () => {
    const cases: [Promise<Awaited<ReturnType<typeof call>>>, number, string][] = [
      [gql('{ me { id '), 400, 'GRAPHQL_PARSE_FAILED'],
      [gql('{ me { nope } }'), 400, 'GRAPHQL_VALIDATION_FAILED'],
      [gql('query($n: Int!) { users(data: {first: $n}) { totalCount } }', { n: 'x' }), 400, 'BAD_USER_INPUT'],
      [gql('{ me { id } }', undefined, { Authorization: 'Bearer old' }), 401, 'TOKEN_EXPIRED'],
      [call('POST', '/graphql', [{ query: '{ me { id } }' }]), 400, 'BAD_REQUEST'],
      [call('POST', '/graphql', '{"query":'), 400, 'BAD_REQUEST'],
      [call('POST', '/graphql', 'x'.repeat(70_000)), 413, 'PAYLOAD_TOO_LARGE'],
      [
        call('GET', `/graphql?query=${encodeURIComponent('mutation { deleteRow(data: {revisionId: "r", tableId: "t", rowId: "x"}) }')}`),
        405,
        'METHOD_NOT_ALLOWED',
      ],
      [call('PUT', '/graphql', {}), 405, 'METHOD_NOT_ALLOWED'],
      [gql(`{ ${Array.from({ length: 31 }, (_, i) => `a${i}: me { id }`).join(' ')} }`), 400, 'QUERY_TOO_COMPLEX'],
      [gql(`{ ${'me { id } '.repeat(2600)} }`), 400, 'QUERY_TOO_COMPLEX'],
    ];
    for (const [pending, status, code] of cases) {
      const { res, body } = await pending;
      assert.equal(res.status, status, code);
      assert.equal(body && 'data' in body, false, `${code}: no data key`);
      const error = (body?.errors as { extensions: { code: string; statusCode: number } }[])[0];
      assert.equal(error?.extensions.code, code);
      assert.equal(error?.extensions.statusCode, status);
    }
    const unsupported = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    assert.equal(unsupported.status, 415);
    assert.equal(((await unsupported.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('GET runs queries; GET without a query serves the bundled IDE', async () => {
    const get = await call('GET', `/graphql?query=${encodeURIComponent('{ me { username } }')}`);
    assert.deepEqual(get.body, { data: { me: { username: 'ann' } } });
    const ide = await fetch(`${base}/graphql`);
    assert.equal(ide.status, 200);
    assert.match(ide.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(ide.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const html = await ide.text();
    assert.match(html, /<script src="\/graphql\/ide\.js" defer><\/script>/);
    assert.doesNotMatch(html, /https?:\/\//);
    assert.equal((await fetch(`${base}/graphql/ide.js`)).status, 200);
  });
});
