import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import { isOAuthProblem, validateClientMetadata } from '../../contracts/index.ts';
import type { Clock, OAuthClientView } from '../../contracts/index.ts';
import type { MetadataDocumentLookup } from './oauthClients.ts';

/** oauth.md §3.2 limits. */
const TIMEOUT_MS = 5000;
const MAX_BYTES = 5 * 1024;
const MAX_CACHE_MS = 86_400_000;
const MAX_CACHED = 1000;

/** Addresses a metadata document may not be fetched from (loopback, private, link-local, reserved). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  // An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged by its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (!mapped && /^::ffff:/i.test(address)) return false;
  const plain = mapped ? (mapped[1] as string) : address;
  const family = isIP(plain);
  if (family === 0) return false;
  return !NON_PUBLIC.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** DNS lookup that refuses non-public answers: the check runs on the address actually connected to (no rebinding gap). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const usable = addresses.filter((a) => allowPrivate || isPublicAddress(a.address));
      if (usable.length === 0) return callback(new Error(`${hostname} resolves to no public address`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** `max-age` of a Cache-Control header (seconds → ms), capped at 24 h; `no-store`/`no-cache` → 0. */
function cacheMsOf(header: string | undefined): number {
  if (header === undefined || /no-store|no-cache/i.test(header)) return 0;
  const match = /max-age=(\d+)/i.exec(header);
  return match ? Math.min(Number(match[1]) * 1000, MAX_CACHE_MS) : 0;
}

type Fetched = { readonly status: number; readonly text: string; readonly cacheControl: string | undefined };

function fetchDocument(url: URL, allowPrivate: boolean): Promise<Fetched> {
  // An address literal is connected to without a lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(literal) !== 0 && !isPublicAddress(literal)) return Promise.reject(new Error(`${literal} is not a public address`));
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { Accept: 'application/json' }, lookup: guardedLookup(allowPrivate), timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BYTES) {
          req.destroy(new Error(`the document is larger than ${MAX_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), cacheControl: res.headers['cache-control'] }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('the document did not arrive within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** A document checked against oauth.md §3.2, as a client view; or why it cannot be used. */
export function clientFromDocument(clientId: string, body: unknown): OAuthClientView | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the document is not a JSON object';
  const doc = body as Record<string, unknown>;
  if (doc.client_id !== clientId) return 'the document\'s client_id is not its own URL';
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') return 'a metadata document client must use token_endpoint_auth_method none';
  const metadata = validateClientMetadata({ redirect_uris: doc.redirect_uris, client_name: doc.client_name, client_uri: doc.client_uri, scope: doc.scope });
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

/**
 * Client ID Metadata Documents (oauth.md §3.2): fetched over https without redirects, 5 s, ≤ 5 KiB, from public
 * addresses only (unless OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES), cached per Cache-Control up to 24 h in this process.
 */
export function createMetadataDocumentLookup(deps: { readonly clock: Clock; readonly log: Logger; readonly allowPrivateAddresses: boolean }): MetadataDocumentLookup {
  const cache = new Map<string, { readonly client: OAuthClientView; readonly until: number }>();
  return async (clientId) => {
    const now = deps.clock.now();
    const cached = cache.get(clientId);
    if (cached && cached.until > now) return { client: cached.client };
    let fetched: Fetched;
    try {
      fetched = await fetchDocument(new URL(clientId), deps.allowPrivateAddresses);
    } catch (err) {
      deps.log.info({ clientId, reason: (err as Error).message }, 'client metadata document fetch failed');
      return { client: null, reason: `its metadata document could not be fetched (${(err as Error).message})` };
    }
    if (fetched.status !== 200) return { client: null, reason: `its metadata document answered HTTP ${fetched.status}` };
    let body: unknown;
    try {
      body = JSON.parse(fetched.text);
    } catch {
      return { client: null, reason: 'its metadata document is not JSON' };
    }
    const client = clientFromDocument(clientId, body);
    if (typeof client === 'string') return { client: null, reason: `its metadata document is invalid: ${client}` };
    const keepMs = cacheMsOf(fetched.cacheControl);
    if (keepMs > 0) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
      cache.set(clientId, { client, until: now + keepMs });
    }
    return { client };
  };
}
