// OAuth 2.1 for MCP clients (oauth.md) with the real MCP SDK client against a real `strata serve`: the 401 starts
// discovery and dynamic registration, the authorization URL is approved in Chromium, the code is exchanged, tools are
// called, the expired access token is refreshed, and the app is refused once the grant is revoked in the Admin UI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { assertChromium, ensureAdminUiBuilt, openBrowser, startServer, type Server, type Session } from './support/adminUiHarness.ts';
import { TestOAuthProvider, approveInBrowser, connectSdkClient, recordingFetch, type Exchange } from './support/oauthMcpClient.ts';

/** Access tokens live 60 s; with the 30 s clock tolerance of auth.md §5 they are refused after 90 s. */
const ACCESS_TTL_SECONDS = 60;
const REFUSED_AFTER_MS = (ACCESS_TTL_SECONDS + 31) * 1000;

const CALLBACK = 'http://127.0.0.1:47913/callback';

/**
 * A loopback https server publishing one Client ID Metadata Document, with a certificate made now by openssl (never
 * downloaded); the Strata process trusts it through NODE_EXTRA_CA_CERTS.
 */
async function startDocumentServer(): Promise<{ url: string; certPath: string; fetches: () => number; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-cimd-'));
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  let count = 0;
  let documentUrl = '';
  const https: HttpsServer = createHttpsServer({ key: await readFile(keyPath), cert: await readFile(certPath) }, (req, res) => {
    if (req.url !== '/oauth/client.json') return void res.writeHead(404).end();
    count += 1;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=600' });
    res.end(JSON.stringify({ client_id: documentUrl, client_name: 'Document Agent', redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' }));
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const address = https.address();
  documentUrl = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/oauth/client.json`;
  return {
    url: documentUrl,
    certPath,
    fetches: () => count,
    async stop() {
      await new Promise((resolve) => https.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

describe('OAuth with the MCP SDK client', { concurrency: false }, () => {
  let server: Server;
  let s: Session;
  let documents: Awaited<ReturnType<typeof startDocumentServer>>;

  before(async () => {
    assertChromium();
    ensureAdminUiBuilt();
    documents = await startDocumentServer();
    server = await startServer({
      MCP_ANONYMOUS_SESSIONS: 'false',
      OAUTH_ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL_SECONDS),
      OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES: 'true',
      NODE_EXTRA_CA_CERTS: documents.certPath,
      LOG_LEVEL: 'info',
    });
    s = await openBrowser(server.url);
  });
  after(async () => {
    await s?.browser.close();
    await server?.stop();
    await documents?.stop();
  });

  test('401 → discovery → registration → consent in Chromium → tools → refresh → refused after revocation', { timeout: 240_000 }, async () => {
    const log: Exchange[] = [];
    const provider = new TestOAuthProvider(CALLBACK);
    const mcpUrl = `${server.url}/mcp`;

    await assert.rejects(connectSdkClient(mcpUrl, provider, log), UnauthorizedError);
    const path = (e: Exchange): string => `${e.method} ${e.path} ${e.status}`;
    assert.deepEqual(log.slice(0, 1).map(path), ['POST /mcp 401'], 'the first request is refused');
    const seen = log.map(path);
    assert.ok(seen.includes('GET /.well-known/oauth-protected-resource/mcp 200'), seen.join('\n'));
    assert.ok(seen.includes('GET /.well-known/oauth-authorization-server 200'), seen.join('\n'));
    assert.ok(seen.includes('POST /oauth/register 201'), seen.join('\n'));
    const clientId = provider.information?.client_id ?? '';
    assert.match(clientId, /^[A-Za-z0-9_-]{21}$/);

    const authorizationUrl = provider.authorizationUrls[0];
    assert.ok(authorizationUrl, 'the SDK asked to open the authorization URL');
    assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorizationUrl.searchParams.get('resource'), mcpUrl);
    const landed = await approveInBrowser(s, authorizationUrl, { shot: 'oauth' });
    assert.equal(landed.searchParams.get('iss'), server.url);
    assert.equal(landed.searchParams.get('state'), authorizationUrl.searchParams.get('state'));
    const code = landed.searchParams.get('code') ?? '';
    assert.match(code, /^[A-Za-z0-9_-]{43,}$/);

    const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recordingFetch(log) });
    await first.finishAuth(code);
    const firstAccess = provider.saved?.access_token ?? '';
    assert.ok(firstAccess && provider.saved?.refresh_token, 'the code was exchanged for tokens');
    assert.equal(provider.saved?.scope, 'strata:read strata:write');

    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recordingFetch(log) }));
    const tools = await client.listTools();
    assert.ok(tools.tools.some((tool) => tool.name === 'create_project'));
    const created = await client.callTool({ name: 'create_project', arguments: { organizationId: 'admin', projectName: 'oauth-demo' } });
    assert.equal(created.isError, undefined, JSON.stringify(created));
    assert.equal((created.structuredContent as { name?: string }).name, 'oauth-demo');
    const me = await client.callTool({ name: 'me', arguments: {} });
    assert.equal((me.structuredContent as { username?: string }).username, 'admin');

    // The access token expires; the SDK's next call gets 401, refreshes and retries on the same session.
    await new Promise((resolve) => setTimeout(resolve, REFUSED_AFTER_MS));
    const before = log.length;
    const listed = await client.callTool({ name: 'get_projects', arguments: { organizationId: 'admin' } });
    assert.equal(listed.isError, undefined, JSON.stringify(listed));
    assert.equal((listed.structuredContent as { totalCount?: number }).totalCount, 1);
    const refreshes = log.slice(before).filter((e) => e.path === '/oauth/token');
    assert.deepEqual(
      refreshes.map((e) => [e.grantType, e.status]),
      [['refresh_token', 200]],
    );
    assert.notEqual(provider.saved?.access_token, firstAccess, 'a new access token was minted');
    const secrets = [code, firstAccess, provider.saved?.access_token ?? '', provider.saved?.refresh_token ?? ''];
    assert.ok(secrets.every((secret) => secret.length > 20));

    // The user disconnects the app in the Admin UI: the next call is refused and the SDK is sent back to consent.
    const { page } = s;
    await page.goto('/admin/connected-apps');
    await page.getByRole('heading', { name: 'Connected apps' }).waitFor();
    const row = page.getByRole('row', { name: /E2E Agent/ });
    await row.waitFor();
    await s.shot('connected-apps');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No connected apps').waitFor();
    const redirectsBefore = provider.authorizationUrls.length;
    await assert.rejects(client.callTool({ name: 'get_projects', arguments: { organizationId: 'admin' } }), UnauthorizedError);
    assert.equal(provider.authorizationUrls.length, redirectsBefore + 1, 'the SDK starts a new authorization');
    assert.deepEqual(
      s.problems.splice(0).filter((p) => !p.includes('127.0.0.1:47913')),
      [],
    );
    await client.close().catch(() => undefined);

    // Audit lines for the registration and the grant, and no token or code in any log line.
    const output = server.output();
    for (const event of ['oauth.client_registered', 'oauth.grant_approved', 'oauth.grant_revoked'])
      assert.ok(output.includes(`"event":"${event}"`), event);
    for (const secret of secrets) assert.ok(!output.includes(secret), 'a secret reached the log');
  });

  test('a Client ID Metadata Document client: no registration, the document host on the consent page', { timeout: 120_000 }, async () => {
    const log: Exchange[] = [];
    const provider = new TestOAuthProvider(CALLBACK, documents.url);
    const mcpUrl = `${server.url}/mcp`;
    await assert.rejects(connectSdkClient(mcpUrl, provider, log), UnauthorizedError);
    assert.ok(!log.some((e) => e.path === '/oauth/register'), 'a metadata-document client does not register');
    const authorizationUrl = provider.authorizationUrls[0];
    assert.ok(authorizationUrl);
    assert.equal(authorizationUrl.searchParams.get('client_id'), documents.url);

    await s.page.goto(authorizationUrl.href);
    await s.page.getByRole('heading', { name: 'Connect Document Agent' }).waitFor();
    await s.page.getByText(new URL(documents.url).host).first().waitFor();
    const landed = await approveInBrowser(s, authorizationUrl, { readOnly: true, shot: 'cimd' });
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recordingFetch(log) });
    await transport.finishAuth(landed.searchParams.get('code') ?? '');
    assert.equal(provider.saved?.scope, 'strata:read');

    const client = new Client({ name: 'document-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recordingFetch(log) }));
    const me = await client.callTool({ name: 'me', arguments: {} });
    assert.equal((me.structuredContent as { username?: string }).username, 'admin');
    // Read-only grant: a write tool is the 403 insufficient_scope step-up; the SDK asks for more (a new authorization).
    const steps = provider.authorizationUrls.length;
    await assert.rejects(client.callTool({ name: 'create_project', arguments: { organizationId: 'admin', projectName: 'nope' } }));
    assert.ok(
      log.some((e) => e.path === '/mcp' && e.status === 403),
      'the write tool was refused with 403',
    );
    assert.ok(provider.authorizationUrls.length >= steps);
    assert.equal(documents.fetches(), 1, 'the document is cached per Cache-Control');
    await client.close().catch(() => undefined);
    assert.deepEqual(s.problems.splice(0), []);
  });
});
