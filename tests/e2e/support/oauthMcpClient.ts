import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Session } from './adminUiHarness.ts';

/** One HTTP exchange the MCP SDK made (method, path, status, grant type of token requests). */
export type Exchange = { readonly method: string; readonly path: string; readonly status: number; readonly grantType: string | null };

/**
 * An OAuthClientProvider as a desktop MCP client implements it: it keeps the client registration, tokens and PKCE
 * verifier in memory and "opens" the authorization URL by remembering it (the test drives Chromium to it).
 */
export class TestOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl: string;
  readonly clientMetadataUrl: string | undefined;
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  /** Every authorization URL the SDK asked to open, in order. */
  readonly authorizationUrls: URL[] = [];
  constructor(redirectUrl: string, clientMetadataUrl?: string) {
    this.redirectUrl = redirectUrl;
    this.clientMetadataUrl = clientMetadataUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  /** What the SDK discards when the server refuses a grant (tokens) or the client (all). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }
}

/** A fetch that records what the SDK asked (never the bodies' secrets). */
export function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const body = init?.body;
    const grantType =
      body instanceof URLSearchParams
        ? body.get('grant_type')
        : typeof body === 'string' && url.pathname === '/oauth/token'
          ? new URLSearchParams(body).get('grant_type')
          : null;
    const res = await fetch(input, init);
    log.push({ method, path: url.pathname, status: res.status, grantType });
    return res;
  };
}

/** An SDK client + Streamable HTTP transport with the provider (connects; throws UnauthorizedError when sent away). */
export async function connectSdkClient(
  mcpUrl: string,
  provider: TestOAuthProvider,
  log: Exchange[],
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: recordingFetch(log) });
  const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/**
 * Drives the browser through the authorization URL: signs in when the sign-in form shows, optionally narrows to
 * read-only, presses Allow, and returns the redirect URI the server sent the browser to (intercepted, never loaded).
 */
export async function approveInBrowser(
  s: Session,
  authorizationUrl: URL,
  options: { readonly username?: string; readonly password?: string; readonly readOnly?: boolean; readonly shot?: string } = {},
): Promise<URL> {
  const { page, context } = s;
  const redirect = new URL(authorizationUrl.searchParams.get('redirect_uri') ?? '');
  let landed: URL | null = null;
  const pattern = `${redirect.origin}${redirect.pathname}**`;
  await context.route(pattern, async (route) => {
    landed = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' });
  });
  await page.goto(authorizationUrl.href);
  if (await page.getByRole('heading', { name: 'Sign in to Strata' }).isVisible()) {
    if (options.shot) await s.shot(`${options.shot}-sign-in`);
    await page.getByLabel('Username').fill(options.username ?? 'admin');
    await page.getByLabel('Password').fill(options.password ?? 'admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: /^Connect / }).waitFor();
  if (options.readOnly) await page.getByLabel('Read only (do not allow changes)').check();
  if (options.shot) await s.shot(`${options.shot}-consent`);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${redirect.origin}${redirect.pathname}`));
  await context.unroute(pattern);
  if (landed === null) throw new Error('the browser never reached the redirect URI');
  return landed;
}
