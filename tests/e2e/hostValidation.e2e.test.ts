import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { draftEndpoint, seedProject, type SeededProject } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, expectRestError, startAuthServer, type AuthServer } from './support/authServer.ts';

// Host validation against DNS rebinding (auth.md §6.4), exact origin comparison (§6.2) and the access-token
// lifetime check (§5), through HTTP. Host headers are sent with node:http: fetch does not let a caller set them.

type RawReply = { readonly status: number; readonly headers: Record<string, string | string[] | undefined>; readonly body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

function raw(server: AuthServer, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<RawReply> {
  const url = new URL(server.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const MCP_ACCEPT = { Accept: 'application/json, text/event-stream' };
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-test', version: '1' } },
};

let server: AuthServer;
let blog: SeededProject;
let port: string;

before(async () => {
  server = await startAuthServer({ METRICS_ENABLED: 'true', CORS_ORIGIN: 'https://app.example.com' });
  port = new URL(server.url).port;
  const { accessToken } = await server.login('admin', ADMIN_PASSWORD);
  blog = await seedProject(server, accessToken, 'acme', 'blog', { tables: ['notes'] });
});
after(() => server.close());

describe('host validation (auth.md §6.4)', () => {
  test('a foreign Host gets 403 HOST_NOT_ALLOWED on every path, fast routes, /health and /mcp included', async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', '/health/live'],
      ['GET', '/health/ready'],
      ['GET', '/metrics'],
      ['GET', '/api/me'],
      ['POST', '/api/auth/login', { username: 'admin', password: ADMIN_PASSWORD }],
      ['POST', '/graphql', { query: '{ me { id } }' }],
      ['GET', `${draftEndpoint('rest', blog)}/tables/notes/rows`],
      ['POST', draftEndpoint('graphql', blog), { query: '{ notes { totalCount } }' }],
      ['GET', '/admin/'],
      ['GET', '/no/such/route'],
      ['OPTIONS', '/api/me'],
    ];
    for (const [method, path, body] of paths) {
      const reply = await raw(server, method, path, { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }, body);
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.equal(reply.body.code, 'HOST_NOT_ALLOWED', `${method} ${path}`);
      assert.equal(reply.body.message, `Host "evil.example:${port}" is not allowed; add it to ALLOWED_HOSTS or set PUBLIC_URL`);
      assert.equal(reply.headers['set-cookie'], undefined);
    }
    // The conformance suite's DNS-rebinding probe: an MCP initialize under the attacker's name opens no session.
    const mcp = await raw(server, 'POST', '/mcp', { ...MCP_ACCEPT, Host: 'evil.example', Origin: 'http://evil.example' }, initialize);
    assert.equal(mcp.status, 403);
    assert.equal(mcp.body.code, 'HOST_NOT_ALLOWED');
    assert.equal(mcp.headers['mcp-session-id'], undefined);
  });

  test('localhost, *.localhost and IP literals are allowed by default, any port and case', async () => {
    for (const host of [`localhost:${port}`, 'LOCALHOST', `app.localhost:${port}`, `127.0.0.1:${port}`, '[::1]:80', '10.0.0.5', 'localhost.']) {
      assert.equal((await raw(server, 'GET', '/health/live', { Host: host })).status, 200, host);
    }
    for (const host of ['localhost.evil.example', 'evil.example', '127.0.0.1.nip.io', 'local host', 'localhost:abc', '[::1']) {
      assert.equal((await raw(server, 'GET', '/health/live', { Host: host })).status, 403, host);
    }
    // An MCP client on localhost initializes normally, and its own origin passes the Origin check.
    const mcp = await raw(server, 'POST', '/mcp', { ...MCP_ACCEPT, Host: `localhost:${port}`, Origin: `http://localhost:${port}` }, initialize);
    assert.equal(mcp.status, 200, JSON.stringify(mcp.body));
    assert.ok(mcp.headers['mcp-session-id']);
  });

  test('PUBLIC_URL and ALLOWED_HOSTS add names; ALLOWED_HOSTS=* turns the check off', async () => {
    const configured = await startAuthServer({ PUBLIC_URL: 'https://data.example.org', ALLOWED_HOSTS: '.example.com,strata.internal' });
    const open = await startAuthServer({ ALLOWED_HOSTS: '*' });
    try {
      for (const host of ['data.example.org', 'DATA.example.org:443', 'example.com', 'api.example.com', 'a.b.example.com:8080', 'strata.internal']) {
        assert.equal((await raw(configured, 'GET', '/health/live', { Host: host })).status, 200, host);
      }
      for (const host of ['other.example.org', 'example.com.evil.example', 'notexample.com', 'strata.internal.evil']) {
        const reply = await raw(configured, 'GET', '/health/live', { Host: host });
        assert.equal(reply.status, 403, host);
        assert.equal(reply.body.code, 'HOST_NOT_ALLOWED');
      }
      assert.equal((await raw(open, 'GET', '/health/live', { Host: 'evil.example' })).status, 200);
    } finally {
      await configured.close();
      await open.close();
    }
  });

  test('behind a trusted proxy the forwarded host is validated, and the own origin comes only from an allowed host', async () => {
    const proxied = await startAuthServer({ TRUST_PROXY: 'loopback', ALLOWED_HOSTS: 'data.example.com' });
    try {
      const forwarded = (host: string) => ({ Host: `localhost:${port}`, 'X-Forwarded-Host': host, 'X-Forwarded-Proto': 'https' });
      const refused = await raw(proxied, 'GET', '/health/live', forwarded('evil.example'));
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'HOST_NOT_ALLOWED');
      assert.equal((await raw(proxied, 'GET', '/health/live', forwarded('data.example.com'))).status, 200);
      // The untrusted server ignores X-Forwarded-Host: its Host is what counts.
      assert.equal((await raw(server, 'GET', '/health/live', forwarded('evil.example'))).status, 200);
      // Login through the allowed forwarded host with its own origin passes the CSRF gate.
      const login = await raw(
        proxied,
        'POST',
        '/api/auth/login',
        { ...forwarded('data.example.com'), Origin: 'https://data.example.com' },
        {
          username: 'admin',
          password: ADMIN_PASSWORD,
        },
      );
      assert.equal(login.status, 200, JSON.stringify(login.body));
    } finally {
      await proxied.close();
    }
  });
});

describe('exact origin comparison (auth.md §6.2)', () => {
  const SPELLINGS = ['https://app.example.com/', 'https://APP.example.com', 'https://app.example.com:443'];

  test('CORS: only the byte-identical origin gets CORS headers', async () => {
    const preflight = (origin: string) => server.call('OPTIONS', '/api/me', { headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
    assert.equal((await preflight('https://app.example.com')).headers.get('access-control-allow-origin'), 'https://app.example.com');
    for (const origin of SPELLINGS) {
      const reply = await preflight(origin);
      assert.equal(reply.headers.get('access-control-allow-origin'), null, origin);
      assert.notEqual(reply.status, 204, origin);
    }
  });

  test('CSRF: other spellings of the listed origin and of the own origin are refused', async () => {
    const { jar } = await server.login('admin', ADMIN_PASSWORD);
    const attempt = (origin: string) => server.call('POST', '/api/auth/access-token', { jar, headers: { Origin: origin } });
    assert.equal((await attempt('https://app.example.com')).status, 200);
    assert.equal((await attempt(server.url)).status, 200);
    const own = new URL(server.url);
    for (const origin of [...SPELLINGS, `${server.url}/`, `HTTP://${own.host}`]) {
      expectRestError(await attempt(origin), 403, 'CSRF_REJECTED');
    }
  });

  test('MCP: Origin must be exactly the own origin or listed', async () => {
    const attempt = (origin: string) => raw(server, 'POST', '/mcp', { ...MCP_ACCEPT, Host: `localhost:${port}`, Origin: origin }, initialize);
    assert.equal((await attempt('https://app.example.com')).status, 200);
    for (const origin of [...SPELLINGS, `http://localhost:${port}/`, `http://LOCALHOST:${port}`, 'null']) {
      const reply = await attempt(origin);
      assert.equal(reply.status, 403, origin);
      assert.equal(reply.headers['mcp-session-id'], undefined);
    }
  });
});

describe('access-token lifetime (auth.md §5)', () => {
  test('a validly signed token whose exp − iat exceeds JWT_ACCESS_TOKEN_TTL_SECONDS is TOKEN_INVALID', async () => {
    const secret = 'host-e2e-jwt-secret-that-is-long-enough-0123456789';
    const other = await startAuthServer({ JWT_SECRET: secret, JWT_ACCESS_TOKEN_TTL_SECONDS: '600' });
    try {
      const { accessToken } = await other.login('admin', ADMIN_PASSWORD);
      const [header, payload] = accessToken.split('.') as [string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iat: number; exp: number };
      assert.equal(claims.exp - claims.iat, 600);
      const resign = (changes: Record<string, number>) => {
        const body = Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url');
        return `${header}.${body}.${createHmac('sha256', secret).update(`${header}.${body}`).digest('base64url')}`;
      };
      assert.equal((await other.call('GET', '/api/me', { token: resign({}) })).status, 200, 'the re-signed original is accepted');
      assert.equal((await other.call('GET', '/api/me', { token: resign({ exp: claims.iat + 600 }) })).status, 200);
      for (const token of [resign({ exp: claims.iat + 601 }), resign({ exp: claims.iat + 365 * 86400 }), resign({ iat: claims.iat - 3600 })]) {
        expectRestError(await other.call('GET', '/api/me', { token }), 401, 'TOKEN_INVALID');
      }
    } finally {
      await other.close();
    }
  });
});
