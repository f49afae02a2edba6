// The OAuth authorization server through HTTP (oauth.md §2-§6): discovery, registration rules, the authorization
// request's refusals, code and refresh-token rules, audience binding, scope step-up, revocation and grants.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../deploy/cli.ts';
import { ADMIN_PASSWORD, startAuthServer, type AuthServer } from './support/authServer.ts';
import type { CookieJar } from './support/cookieJar.ts';
import {
  approve,
  authorizeQuery,
  consentFields,
  exchange,
  form,
  mcpInitialize,
  mcpToolCall,
  pkce,
  raw,
  registerClient,
  type AuthorizeOptions,
} from './support/oauthHttp.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
let server: AuthServer;
let jar: CookieJar;
let adminToken: string;
let clientId: string;
/** A code issued at the start, exchanged at the end (after its 60 s lifetime). */
let staleCode: { code: string; verifier: string } | null = null;
let staleIssuedAt = 0;

async function codeFor(
  options: Partial<AuthorizeOptions> = {},
  choices: { readOnly?: boolean; organization?: string } = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const landed = await approve(server, jar, { clientId, redirectUri: REDIRECT, challenge, ...options }, choices);
  assert.equal(landed.searchParams.get('iss'), server.url);
  return { code: landed.searchParams.get('code') ?? '', verifier };
}

async function tokensFor(
  choices: { readOnly?: boolean; organization?: string } = {},
): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { code, verifier } = await codeFor({}, choices);
  const reply = await exchange(server, { code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.headers.get('cache-control'), 'no-store');
  return reply.body;
}

before(async () => {
  server = await startAuthServer({ JWT_REFRESH_GRACE_PERIOD_MS: '0' });
  ({ jar, accessToken: adminToken } = await server.login('admin', ADMIN_PASSWORD));
  const registered = await registerClient(server, { redirect_uris: [REDIRECT], client_name: 'Negative Tests' });
  assert.equal(registered.status, 201, registered.text);
  clientId = registered.body.client_id;
  staleCode = await codeFor();
  staleIssuedAt = Date.now();
});
after(() => server.close());

describe('discovery', () => {
  test('both metadata documents, public and CORS-open; other well-known paths are 404', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const reply = await raw(server, 'GET', path);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, {
        resource: `${server.url}/mcp`,
        authorization_servers: [server.url],
        scopes_supported: ['strata:read', 'strata:write'],
        bearer_methods_supported: ['header'],
        resource_name: 'Strata MCP',
      });
      assert.equal(reply.headers.get('access-control-allow-origin'), '*');
      assert.equal(reply.headers.get('cache-control'), 'max-age=300');
    }
    const as = await raw(server, 'GET', '/.well-known/oauth-authorization-server');
    assert.equal(as.body.issuer, server.url);
    assert.equal(as.body.token_endpoint, `${server.url}/oauth/token`);
    assert.deepEqual(as.body.code_challenge_methods_supported, ['S256']);
    assert.equal(as.body.authorization_response_iss_parameter_supported, true);
    assert.equal((await raw(server, 'GET', '/.well-known/openid-configuration')).status, 404);
  });

  test('every 401 from /mcp carries resource_metadata; a refused token adds invalid_token', async () => {
    const init = await mcpInitialize(server, 'not-a-jwt');
    assert.equal(init.status, 401);
    assert.equal(
      init.headers.get('www-authenticate'),
      `Bearer realm="strata", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="strata:read strata:write", error="invalid_token"`,
    );
    const anonymous = await mcpInitialize(server, null);
    const sessionId = anonymous.headers.get('mcp-session-id') ?? '';
    const prompt = await mcpToolCall(server, sessionId, null, 'create_project', { organizationId: 'admin', projectName: 'x' });
    assert.equal(prompt.status, 401);
    assert.equal(prompt.body.error.code, -32002);
    assert.equal(prompt.body.error.message, 'Authentication required');
    assert.match(prompt.headers.get('www-authenticate') ?? '', /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
    // R tools keep answering a guest; the session stays usable and `login` still binds it.
    const read = await mcpToolCall(server, sessionId, null, 'get_projects', { organizationId: 'admin' });
    assert.equal(read.status, 200, read.text);
    const login = await mcpToolCall(server, sessionId, null, 'login', { username: 'admin', password: ADMIN_PASSWORD });
    assert.equal(login.body.result.structuredContent.authenticated, true);
  });
});

describe('dynamic client registration', () => {
  test('refuses javascript:, fragments and non-loopback http redirect URIs', async () => {
    for (const uri of ['javascript:alert(1)', 'https://app.example/cb#frag', 'http://app.example/cb', 'relative/cb']) {
      const reply = await registerClient(server, { redirect_uris: [uri] });
      assert.equal(reply.status, 400, uri);
      assert.equal(reply.body.error, 'invalid_redirect_uri', uri);
      assert.equal(typeof reply.body.error_description, 'string');
    }
    const badScope = await registerClient(server, { redirect_uris: [REDIRECT], scope: 'admin' });
    assert.equal(badScope.body.error, 'invalid_client_metadata');
    const privateUse = await registerClient(server, {
      redirect_uris: ['com.example.app:/cb', 'http://[::1]/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    assert.equal(privateUse.status, 201, privateUse.text);
    assert.equal(typeof privateUse.body.client_secret, 'string');
    assert.equal(privateUse.body.client_secret_expires_at, 0);
    const log = server.logLines().join('\n');
    assert.ok(log.includes('"event":"oauth.client_registered"'));
    assert.ok(!log.includes(privateUse.body.client_secret), 'the client secret is never logged');
  });
});

describe('authorization request', () => {
  test('an unregistered redirect URI or unknown client is an error page, never a redirect', async () => {
    const { challenge } = pkce();
    for (const query of [
      authorizeQuery({ clientId, redirectUri: 'http://127.0.0.1:9/other', challenge }),
      authorizeQuery({ clientId: 'nope', redirectUri: REDIRECT, challenge }),
    ]) {
      const reply = await raw(server, 'GET', `/oauth/authorize?${query}`, { jar });
      assert.equal(reply.status, 400);
      assert.equal(reply.headers.get('location'), null);
      assert.match(reply.headers.get('content-type') ?? '', /text\/html/);
    }
  });

  test('plain PKCE, wrong resource and unknown scope redirect with the error, state and iss', async () => {
    const { challenge } = pkce();
    const cases: [Partial<AuthorizeOptions>, string][] = [
      [{ method: 'plain' }, 'invalid_request'],
      [{ resource: 'https://evil.example/mcp' }, 'invalid_target'],
      [{ scope: 'strata:admin' }, 'invalid_scope'],
    ];
    for (const [options, error] of cases) {
      const reply = await raw(server, 'GET', `/oauth/authorize?${authorizeQuery({ clientId, redirectUri: REDIRECT, challenge, ...options })}`, {
        jar,
      });
      assert.equal(reply.status, 302);
      const location = new URL(reply.headers.get('location') ?? '');
      assert.equal(location.origin + location.pathname, REDIRECT);
      assert.deepEqual(
        [location.searchParams.get('error'), location.searchParams.get('state'), location.searchParams.get('iss')],
        [error, 'st-1', server.url],
      );
    }
  });

  test('the page cannot be framed and a consent POST without the anti-forgery token grants nothing', async () => {
    const { challenge } = pkce();
    const options = { clientId, redirectUri: REDIRECT, challenge };
    const page = await raw(server, 'GET', `/oauth/authorize?${authorizeQuery(options)}`, { jar });
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const fields = consentFields(page.text);
    const { form_token: token, ...withoutToken } = fields;
    assert.ok(token);
    const missing = await raw(server, 'POST', '/oauth/authorize', { ...form({ ...withoutToken, decision: 'allow' }), jar });
    assert.equal(missing.status, 403);
    assert.equal(missing.headers.get('location'), null);
    const forged = await raw(server, 'POST', '/oauth/authorize', {
      ...form({ ...fields, form_token: `${token.slice(0, -2)}AA`, decision: 'allow' }),
      jar,
    });
    assert.equal(forged.status, 403);
    const crossSite = await raw(server, 'POST', '/oauth/authorize', {
      ...form({ ...fields, decision: 'allow' }),
      jar,
      headers: { ...form({}).headers, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    assert.equal(crossSite.status, 403);
    const denied = await raw(server, 'POST', '/oauth/authorize', { ...form({ ...fields, decision: 'deny' }), jar });
    assert.equal(new URL(denied.headers.get('location') ?? '').searchParams.get('error'), 'access_denied');
  });
});

describe('token endpoint', () => {
  test('PKCE mismatch and a wrong resource are refused; form encoding only', async () => {
    const { code, verifier } = await codeFor();
    const mismatch = await exchange(server, { code, code_verifier: pkce().verifier, redirect_uri: REDIRECT, client_id: clientId });
    assert.deepEqual([mismatch.status, mismatch.body.error], [400, 'invalid_grant']);
    const target = await exchange(server, {
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: 'https://evil.example/mcp',
    });
    assert.deepEqual([target.status, target.body.error], [400, 'invalid_target']);
    const json = await raw(server, 'POST', '/oauth/token', {
      body: JSON.stringify({ grant_type: 'authorization_code' }),
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual([json.status, json.body.error], [400, 'invalid_request']);
    const unknownClient = await exchange(server, { code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: 'nobody' });
    assert.deepEqual([unknownClient.status, unknownClient.body.error], [401, 'invalid_client']);
  });

  test('a second use of a code fails and revokes the tokens of the first', async () => {
    const { code, verifier } = await codeFor();
    const values = { code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId };
    const first = await exchange(server, values);
    assert.equal(first.status, 200, first.text);
    assert.equal((await mcpInitialize(server, first.body.access_token)).status, 200);
    const second = await exchange(server, values);
    assert.deepEqual([second.status, second.body.error], [400, 'invalid_grant']);
    assert.equal((await mcpInitialize(server, first.body.access_token)).status, 401);
    const refresh = await raw(
      server,
      'POST',
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: clientId }),
    );
    assert.equal(refresh.body.error, 'invalid_grant');
    assert.ok(server.logLines().some((line) => line.includes('"event":"oauth.code_reuse"')));
  });

  test('refresh rotates; reuse after the grace period revokes the family', async () => {
    const tokens = await tokensFor();
    const rotated = await raw(
      server,
      'POST',
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }),
    );
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.refresh_token, tokens.refresh_token);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reused = await raw(
      server,
      'POST',
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }),
    );
    assert.deepEqual([reused.status, reused.body.error], [400, 'invalid_grant']);
    const successor = await raw(
      server,
      'POST',
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token, client_id: clientId }),
    );
    assert.equal(successor.body.error, 'invalid_grant', 'the whole family is revoked');
    assert.equal((await mcpInitialize(server, rotated.body.access_token)).status, 401);
  });

  test('an OAuth token is accepted only on /mcp: /graphql, /api and /endpoint answer 401 TOKEN_INVALID', async () => {
    const { access_token: token } = await tokensFor();
    for (const [method, path, body] of [
      ['POST', '/graphql', '{"query":"{ me { id } }"}'],
      ['GET', '/api/me', undefined],
      ['GET', '/endpoint/rest/admin/p/master/draft/tables', undefined],
    ] as const) {
      const reply = await raw(server, method, path, {
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body ? { body } : {}),
      });
      assert.equal(reply.status, path === '/graphql' ? 401 : 401, `${path}: ${reply.text}`);
      assert.ok(reply.text.includes('TOKEN_INVALID'), `${path}: ${reply.text}`);
    }
    // Strata's own tokens keep working on /mcp beside OAuth tokens.
    assert.equal((await mcpInitialize(server, adminToken)).status, 200);
  });

  test('a read-only grant calling a write tool gets 403 insufficient_scope (step-up)', async () => {
    const tokens = await tokensFor({ readOnly: true });
    assert.equal(tokens.scope, 'strata:read');
    const init = await mcpInitialize(server, tokens.access_token);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const write = await mcpToolCall(server, sessionId, tokens.access_token, 'create_project', { organizationId: 'admin', projectName: 'ro' });
    assert.equal(write.status, 403);
    assert.equal(write.body.error.code, -32003);
    assert.equal(
      write.headers.get('www-authenticate'),
      `Bearer error="insufficient_scope", scope="strata:read strata:write", resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp"`,
    );
    const read = await mcpToolCall(server, sessionId, tokens.access_token, 'me', {});
    assert.equal(read.body.result.structuredContent.username, 'admin');
  });

  test('an expired code is refused', async () => {
    assert.ok(staleCode);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, staleIssuedAt + 62_000 - Date.now())));
    const reply = await exchange(server, { code: staleCode.code, code_verifier: staleCode.verifier, redirect_uri: REDIRECT, client_id: clientId });
    assert.deepEqual([reply.status, reply.body.error], [400, 'invalid_grant']);
  });
});

describe('revocation and grants', () => {
  test('RFC 7009 revocation ends the family; unknown tokens still answer 200', async () => {
    const tokens = await tokensFor();
    const revoked = await raw(server, 'POST', '/oauth/revoke', form({ token: tokens.access_token, client_id: clientId }));
    assert.deepEqual([revoked.status, revoked.text], [200, '']);
    assert.equal((await mcpInitialize(server, tokens.access_token)).status, 401);
    assert.equal((await raw(server, 'POST', '/oauth/revoke', form({ token: 'garbage', client_id: clientId }))).status, 200);
  });

  test('grants are listed and revoked over REST; API keys and other users get 403 / 404', async () => {
    const tokens = await tokensFor();
    const listed = await server.call('GET', '/api/oauth/grants', { token: adminToken });
    assert.equal(listed.status, 200, listed.text);
    const grant = listed.body.find((g: { clientId: string }) => g.clientId === clientId);
    assert.equal(grant.clientName, 'Negative Tests');
    assert.equal(grant.clientKind, 'registered');
    await server.createUser(adminToken, 'other', 'other-password-1');
    const { accessToken: otherToken } = await server.login('other', 'other-password-1');
    const foreign = await server.call('DELETE', `/api/oauth/grants/${grant.id}`, { token: otherToken });
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'OAUTH_GRANT_NOT_FOUND']);
    const key = await server.call('POST', '/api/api-keys/personal', { token: adminToken, body: { name: 'k' } });
    const viaKey = await server.call('GET', '/api/oauth/grants', { headers: { 'X-Api-Key': key.body.secret } });
    assert.deepEqual([viaKey.status, viaKey.body.code], [403, 'FORBIDDEN']);
    const revoked = await server.call('DELETE', `/api/oauth/grants/${grant.id}`, { token: adminToken });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal((await mcpInitialize(server, tokens.access_token)).status, 401);
    const after = await server.call('GET', '/api/oauth/grants', { token: adminToken });
    assert.ok(!after.body.some((g: { id: string }) => g.id === grant.id));
  });

  test("a password change and a deactivation end the user's grants", async () => {
    const patId = await server.createUser(adminToken, 'pat', 'pat-password-1');
    const grantTokens = async (password: string) => {
      const { jar: patJar } = await server.login('pat', password);
      const { verifier, challenge } = pkce();
      const landed = await approve(server, patJar, { clientId, redirectUri: REDIRECT, challenge });
      const reply = await exchange(server, {
        code: landed.searchParams.get('code') ?? '',
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      });
      assert.equal(reply.status, 200, reply.text);
      assert.equal((await mcpInitialize(server, reply.body.access_token)).status, 200);
      return reply.body as { access_token: string; refresh_token: string };
    };
    const before = await grantTokens('pat-password-1');
    const { accessToken: patToken } = await server.login('pat', 'pat-password-1');
    const changed = await server.call('PUT', '/api/me/password', {
      token: patToken,
      body: { oldPassword: 'pat-password-1', newPassword: 'pat-password-2' },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal((await mcpInitialize(server, before.access_token)).status, 401);
    const refreshed = await raw(
      server,
      'POST',
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: before.refresh_token, client_id: clientId }),
    );
    assert.equal(refreshed.body.error, 'invalid_grant');
    const { accessToken: newToken } = await server.login('pat', 'pat-password-2');
    assert.deepEqual((await server.call('GET', '/api/oauth/grants', { token: newToken })).body, [], 'the grant ended with the password');

    const again = await grantTokens('pat-password-2');
    assert.equal((await server.call('POST', `/api/user/${patId}/deactivate`, { token: adminToken })).status, 200);
    assert.equal((await mcpInitialize(server, again.access_token)).status, 401);
  });

  test('logout-all ends every grant token; no code, token or secret is logged', async () => {
    const tokens = await tokensFor();
    const { accessToken } = await server.login('admin', ADMIN_PASSWORD);
    assert.equal((await server.call('POST', '/api/auth/logout-all', { token: accessToken })).status, 204);
    assert.equal((await mcpInitialize(server, tokens.access_token)).status, 401);
    server.remember(tokens.access_token, tokens.refresh_token);
    server.assertNoSecretsLogged();
  });

  test('strata audit oauth prints every OAuth event from the log, filters, and never a code or token', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const cli = (args: string[]) =>
      runCli(['audit', 'oauth', ...args], {
        env: { DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' },
        stdout: (t) => void out.push(t),
        stderr: (t) => void err.push(t),
      });
    assert.equal(await cli(['--json']), 0, err.join(''));
    const entries = out
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; clientId: string; userId: string | null; details: Record<string, unknown> });
    const events = new Set(entries.map((e) => e.event));
    for (const event of ['client-registered', 'grant-approved', 'grant-revoked', 'code-reuse-detected', 'token-reuse-detected'])
      assert.ok(events.has(event), event);
    const approval = entries.find((e) => e.event === 'grant-approved' && e.clientId === clientId);
    assert.deepEqual(approval?.details.redirectHost, '127.0.0.1:9');
    assert.ok(!out.join('').includes('codeHash') && !out.join('').includes('secretHash'));
    out.length = 0;
    assert.equal(await cli(['--client', clientId]), 0);
    const lines = out.join('').trimEnd().split('\n');
    assert.match(lines[0] as string, /^TIME +EVENT +CLIENT +USER +DETAILS$/);
    assert.ok(lines.slice(1).every((line) => line.includes(clientId)));
    assert.equal(await cli(['--since', 'yesterday']), 2);
  });
});

describe('OAUTH_ENABLED=false', () => {
  let off: AuthServer;
  before(async () => {
    off = await startAuthServer({ OAUTH_ENABLED: 'false' });
  });
  after(() => off.close());

  test('no discovery, /oauth/* is 404, /mcp 401s carry no resource_metadata, OAuth-shaped tokens are refused', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/oauth/authorize']) {
      assert.equal((await raw(off, 'GET', path)).status, 404, path);
    }
    assert.equal((await registerClient(off, { redirect_uris: [REDIRECT] })).status, 404);
    const refused = await mcpInitialize(off, 'not-a-jwt');
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"');
  });
});
