import type { Logger } from 'pino';
import { createBoundedCache, isOAuthProblem, validateClientMetadata } from '../../contracts/index.ts';
import type { Clock, OAuthClientView, OutboundHttp } from '../../contracts/index.ts';
import type { MetadataDocumentLookup } from './oauthClients.ts';

/** oauth.md §3.2 limits. */
const TIMEOUT_MS = 5000;
const MAX_BYTES = 5 * 1024;
const MAX_CACHE_MS = 86_400_000;
/** Documents kept: entries and bytes (each ≤ MAX_BYTES as fetched; kept as a client view with a JSON-like estimate). */
const CACHE_BOUNDS = { maxEntries: 1_000, maxBytes: 8 * 1024 * 1024 };
/**
 * Fetches in flight at once. Any anonymous client can name a document (`GET /oauth/authorize`), so without a cap one
 * client could hold thousands of sockets on slow hosts for 5 s each; past it the lookup fails at once.
 */
const MAX_IN_FLIGHT = 32;

/** `max-age` of a Cache-Control header (seconds → ms), capped at 24 h; `no-store`/`no-cache` → 0. */
function cacheMsOf(header: string | undefined): number {
  if (header === undefined || /no-store|no-cache/i.test(header)) return 0;
  const match = /max-age=(\d+)/i.exec(header);
  return match ? Math.min(Number(match[1]) * 1000, MAX_CACHE_MS) : 0;
}

/** A document checked against oauth.md §3.2, as a client view; or why it cannot be used. */
export function clientFromDocument(clientId: string, body: unknown): OAuthClientView | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the document is not a JSON object';
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== clientId) return "the document's client_id is not its own URL";
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') return 'a metadata document client must use token_endpoint_auth_method none';
  const metadata = validateClientMetadata({
    redirect_uris: doc.redirect_uris,
    client_name: doc.client_name,
    client_uri: doc.client_uri,
    scope: doc.scope,
  });
  if (isOAuthProblem(metadata)) return metadata.description;
  return {
    clientId,
    kind: 'metadataDocument',
    name: metadata.clientName,
    documentHost: new URL(clientId).host,
    redirectUris: metadata.redirectUris,
    scopes: metadata.scopes,
    grantTypes: metadata.grantTypes,
  };
}

type LookupResult = Awaited<ReturnType<MetadataDocumentLookup>>;

/**
 * Client ID Metadata Documents (oauth.md §3.2): fetched over https without redirects, 5 s, ≤ 5 KiB, from public
 * addresses only (unless OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES), through the outbound client that survives hostile hosts
 * (contracts/ports/outboundHttp.ts); cached per Cache-Control up to 24 h in this process. Concurrent lookups of one
 * document share one fetch, and at most MAX_IN_FLIGHT fetches run at once.
 */
export function createMetadataDocumentLookup(deps: {
  readonly clock: Clock;
  readonly log: Logger;
  readonly allowPrivateAddresses: boolean;
  readonly outboundHttp: OutboundHttp;
}): MetadataDocumentLookup {
  const cache = createBoundedCache<string, { readonly client: OAuthClientView; readonly until: number }>(CACHE_BOUNDS);
  const inFlight = new Map<string, Promise<LookupResult>>();

  async function fetchAndCheck(clientId: string): Promise<LookupResult> {
    const fetched = await deps.outboundHttp.send({
      url: clientId,
      method: 'GET',
      headers: { accept: 'application/json' },
      timeoutMs: TIMEOUT_MS,
      bodyHandling: 'keep',
      maxBodyBytes: MAX_BYTES,
      allowPrivateAddresses: deps.allowPrivateAddresses,
    });
    if (!fetched.ok) {
      deps.log.info({ clientId, reason: fetched.message }, 'client metadata document fetch failed');
      return { client: null, reason: `its metadata document could not be fetched (${fetched.message})` };
    }
    if (fetched.status !== 200) return { client: null, reason: `its metadata document answered HTTP ${fetched.status}` };
    let body: unknown;
    try {
      body = JSON.parse(fetched.body.toString('utf8'));
    } catch {
      return { client: null, reason: 'its metadata document is not JSON' };
    }
    const client = clientFromDocument(clientId, body);
    if (typeof client === 'string') return { client: null, reason: `its metadata document is invalid: ${client}` };
    const keepMs = cacheMsOf(fetched.headers['cache-control']);
    if (keepMs > 0) {
      cache.set(clientId, { client, until: deps.clock.now() + keepMs });
    }
    return { client };
  }

  return async (clientId) => {
    const cached = cache.get(clientId);
    if (cached && cached.until > deps.clock.now()) return { client: cached.client };
    const pending = inFlight.get(clientId);
    if (pending) return pending;
    if (inFlight.size >= MAX_IN_FLIGHT) return { client: null, reason: 'too many metadata documents are being fetched; try again shortly' };
    const fetching = fetchAndCheck(clientId).finally(() => inFlight.delete(clientId));
    inFlight.set(clientId, fetching);
    return fetching;
  };
}
