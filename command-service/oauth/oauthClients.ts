import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { OAuthError, isMetadataDocumentClientId, isOAuthProblem, oauthClientStreamId, validateClientMetadata } from '../../contracts/index.ts';
import type { AuthEvent, Clock, OAuthClientCredentials, OAuthClientRecord, OAuthClientView, SystemStateSource } from '../../contracts/index.ts';
import type { RefreshRotation } from '../sessions/refreshRotation.ts';

const HOUR_MS = 3_600_000;
/** oauth.md §3.1: registration requests (accepted or not) per client IP per hour. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 20;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** A fetched Client ID Metadata Document, already checked against oauth.md §3.2; or why it cannot be used. */
export type MetadataDocumentLookup = (
  clientId: string,
) => Promise<{ readonly client: OAuthClientView } | { readonly client: null; readonly reason: string }>;

export type OAuthClientRegistryDeps = {
  readonly systemState: SystemStateSource;
  readonly rotation: Pick<RefreshRotation, 'append' | 'guarded'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** OAUTH_MAX_CLIENTS. */
  readonly maxClients: number;
  /** CIMD clients; absent: metadata-document client ids are unknown clients. */
  readonly metadataDocuments?: MetadataDocumentLookup;
};

/** A client that authenticated at the token or revocation endpoint. */
export type AuthenticatedClient = { readonly view: OAuthClientView; readonly record: OAuthClientRecord | null };

export type OAuthClientRegistry = {
  register(body: unknown, context: { readonly clientIp: string; readonly correlationId: string }): Promise<Record<string, unknown>>;
  findClient(clientId: string): Promise<{ readonly client: OAuthClientView } | { readonly client: null; readonly reason: string }>;
  /** Client authentication of oauth.md §5; failures are `401 invalid_client`. */
  authenticate(credentials: OAuthClientCredentials): Promise<AuthenticatedClient>;
};

export function viewOfRegistered(record: OAuthClientRecord): OAuthClientView {
  return {
    clientId: record.id,
    kind: 'registered',
    name: record.name,
    documentHost: null,
    redirectUris: record.redirectUris,
    scopes: record.scopes,
    grantTypes: record.grantTypes,
  };
}

function secretMatches(secret: string, hash: string): boolean {
  const presented = Buffer.from(sha256Hex(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Registered clients (RFC 7591, events in the log) and metadata-document clients, and client authentication. */
export function createOAuthClientRegistry(deps: OAuthClientRegistryDeps): OAuthClientRegistry {
  const { systemState, rotation, clock, log } = deps;
  /** Registration requests per client IP in the last hour (this process; see the role README). */
  const recent = new Map<string, number[]>();

  function assertRegistrationAllowed(ip: string, now: number): void {
    const times = (recent.get(ip) ?? []).filter((t) => t > now - HOUR_MS);
    if (times.length >= REGISTRATIONS_PER_IP_PER_HOUR) {
      const retryAfter = Math.max(1, Math.ceil(((times[0] as number) + HOUR_MS - now) / 1000));
      recent.set(ip, times);
      throw new OAuthError(429, 'temporarily_unavailable', 'Too many client registrations from this address; retry later', {
        'Retry-After': String(retryAfter),
      });
    }
    times.push(now);
    recent.set(ip, times);
  }

  async function findClient(clientId: string): Promise<{ readonly client: OAuthClientView } | { readonly client: null; readonly reason: string }> {
    if (isMetadataDocumentClientId(clientId)) {
      if (!deps.metadataDocuments) return { client: null, reason: 'Client ID Metadata Documents are not enabled' };
      return deps.metadataDocuments(clientId);
    }
    const record = (await systemState.current()).oauthClients.get(clientId);
    return record ? { client: viewOfRegistered(record) } : { client: null, reason: 'Unknown client_id' };
  }

  return {
    findClient,

    async register(body, context) {
      const now = clock.now();
      assertRegistrationAllowed(context.clientIp, now);
      const metadata = validateClientMetadata(body);
      if (isOAuthProblem(metadata)) throw new OAuthError(400, metadata.error, metadata.description);
      const state = await systemState.current();
      if (state.oauthClients.size >= deps.maxClients) {
        throw new OAuthError(503, 'temporarily_unavailable', 'The server has reached its limit of registered clients');
      }
      const clientId = randomBytes(16).toString('base64url').slice(0, 21);
      const confidential = metadata.tokenEndpointAuthMethod !== 'none';
      const secret = confidential ? randomBytes(32).toString('base64url') : null;
      const event: AuthEvent = {
        type: 'OAuthClientRegistered',
        data: {
          clientId,
          clientName: metadata.clientName,
          clientUri: metadata.clientUri,
          redirectUris: metadata.redirectUris,
          scopes: metadata.scopes,
          grantTypes: metadata.grantTypes,
          tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
          secretHash: secret === null ? null : sha256Hex(secret),
          registeredFromIp: context.clientIp,
        },
      };
      await rotation.guarded('client registration', () =>
        rotation.append(oauthClientStreamId(clientId), [event], 'anonymous', context.correlationId, now, 'no_stream'),
      );
      const redirectHosts = metadata.redirectUris.map((uri) => new URL(uri).host || new URL(uri).protocol);
      log.info(
        { audit: true, event: 'oauth.client_registered', actor: 'anonymous', clientId, ip: context.clientIp, redirectHosts },
        'oauth client registered',
      );
      return {
        client_id: clientId,
        client_id_issued_at: Math.floor(now / 1000),
        redirect_uris: metadata.redirectUris,
        ...(metadata.clientName !== null ? { client_name: metadata.clientName } : {}),
        ...(metadata.clientUri !== null ? { client_uri: metadata.clientUri } : {}),
        scope: metadata.scopes.join(' '),
        grant_types: metadata.grantTypes,
        response_types: ['code'],
        token_endpoint_auth_method: metadata.tokenEndpointAuthMethod,
        ...(secret !== null ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      };
    },

    async authenticate(credentials) {
      const basic = credentials.basic;
      const clientId = basic?.clientId ?? credentials.formClientId;
      const fail = (description: string): OAuthError =>
        new OAuthError(401, 'invalid_client', description, basic ? { 'WWW-Authenticate': 'Basic realm="strata"' } : {});
      if (clientId === null || clientId === '') throw fail('Client authentication failed: no client_id');
      if (basic && credentials.formClientId !== null && credentials.formClientId !== basic.clientId)
        throw fail('client_id does not match the Basic credentials');
      const found = await findClient(clientId);
      if (found.client === null) throw fail('Client authentication failed: unknown client');
      const record = (await systemState.current()).oauthClients.get(clientId) ?? null;
      const method = record?.tokenEndpointAuthMethod ?? 'none';
      if (method === 'client_secret_basic' || method === 'client_secret_post') {
        const secret = method === 'client_secret_basic' ? basic?.secret : credentials.formSecret;
        if (secret === undefined || secret === null || record?.secretHash == null || !secretMatches(secret, record.secretHash)) {
          throw fail('Client authentication failed');
        }
      }
      return { view: found.client, record };
    },
  };
}
