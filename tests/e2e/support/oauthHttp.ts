import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { AuthServer } from './authServer.ts';
import type { CookieJar } from './cookieJar.ts';

/** An answer of an OAuth endpoint or page (redirects are not followed). */
export type OAuthReply = { readonly status: number; readonly headers: Headers; readonly text: string; readonly body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

/** A request to the server without following redirects (the authorization answer is a 302 to the client). */
export async function raw(
  server: AuthServer,
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; jar?: CookieJar } = {},
): Promise<OAuthReply> {
  const headers: Record<string, string> = { ...options.headers };
  const cookie = options.jar?.header(path.split('?')[0] ?? path);
  if (cookie !== undefined) headers.Cookie = cookie;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  options.jar?.store(res.headers, path.split('?')[0] ?? path);
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export const form = (values: Record<string, string>): { body: string; headers: Record<string, string> } => ({
  body: new URLSearchParams(values).toString(),
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
});

/** A PKCE pair (RFC 7636 S256). */
export function pkce(): { readonly verifier: string; readonly challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(server: AuthServer, metadata: Record<string, unknown>): Promise<OAuthReply> {
  return raw(server, 'POST', '/oauth/register', { body: JSON.stringify(metadata), headers: { 'Content-Type': 'application/json' } });
}

export type AuthorizeOptions = {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly scope?: string;
  readonly state?: string;
  readonly resource?: string;
  readonly method?: string;
};

export function authorizeQuery(options: AuthorizeOptions): string {
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    code_challenge: options.challenge,
    code_challenge_method: options.method ?? 'S256',
    state: options.state ?? 'st-1',
  };
  if (options.scope !== undefined) params.scope = options.scope;
  if (options.resource !== undefined) params.resource = options.resource;
  return new URLSearchParams(params).toString();
}

/** The hidden fields of the consent form (the request's parameters and the anti-forgery token). */
export function consentFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] as string] = (match[2] as string)
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  }
  return fields;
}

/** The consent page for a signed-in browser (jar), then Allow (optionally read-only / narrowed): the redirect URL. */
export async function approve(
  server: AuthServer,
  jar: CookieJar,
  options: AuthorizeOptions,
  choices: { readOnly?: boolean; organization?: string } = {},
): Promise<URL> {
  const page = await raw(server, 'GET', `/oauth/authorize?${authorizeQuery(options)}`, { jar });
  assert.equal(page.status, 200, page.text);
  assert.match(page.text, /<h1>Connect /);
  const fields = consentFields(page.text);
  const decision = { ...fields, decision: 'allow', organization: choices.organization ?? '', ...(choices.readOnly ? { read_only: '1' } : {}) };
  const answer = await raw(server, 'POST', '/oauth/authorize', { ...form(decision), jar });
  assert.equal(answer.status, 302, answer.text);
  return new URL(answer.headers.get('location') ?? '');
}

/** Exchanges a code (public client). */
export function exchange(server: AuthServer, values: Record<string, string>): Promise<OAuthReply> {
  return raw(server, 'POST', '/oauth/token', form({ grant_type: 'authorization_code', ...values }));
}

/** Initializes an MCP session with `Authorization: Bearer token` and returns the reply. */
export function mcpInitialize(server: AuthServer, token: string | null): Promise<OAuthReply> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return raw(server, 'POST', '/mcp', { body, headers });
}

/** One tool call in a session. */
export function mcpToolCall(
  server: AuthServer,
  sessionId: string,
  token: string | null,
  name: string,
  args: Record<string, unknown>,
): Promise<OAuthReply> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': '2025-11-25',
  };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return raw(server, 'POST', '/mcp', { body, headers });
}
