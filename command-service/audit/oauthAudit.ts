import { streamCategories } from '../../contracts/index.ts';
import { formatAuditJsonLines, formatAuditTable, readAuditEntries } from './auditLog.ts';
import type {
  EventStore,
  OAuthClientRegistered,
  OAuthFamilyStarted,
  OAuthGrantApproved,
  OAuthGrantRevoked,
  RecordedEvent,
  RefreshFamilyRevoked,
} from '../../contracts/index.ts';

/** One line of `strata audit oauth` (oauth.md §7). Never holds a code, token, secret or hash. */
export type OAuthAuditEntry = {
  readonly time: string;
  readonly event: 'client-registered' | 'grant-approved' | 'grant-revoked' | 'token-reuse-detected' | 'code-reuse-detected';
  readonly clientId: string | null;
  readonly userId: string | null;
  readonly details: Readonly<Record<string, unknown>>;
};

/** All optional; times in ms, both bounds inclusive. */
export type OAuthAuditFilter = { readonly userId?: string; readonly clientId?: string; readonly sinceMs?: number; readonly untilMs?: number };

const hostOf = (uri: string): string => {
  try {
    return new URL(uri).host || new URL(uri).protocol;
  } catch {
    return '-';
  }
};

type Known = {
  readonly grants: Map<string, { clientId: string; userId: string }>;
  readonly families: Map<string, { clientId: string; userId: string; grantId: string }>;
};

function toEntry(recorded: RecordedEvent, known: Known): OAuthAuditEntry | null {
  const time = recorded.metadata.time;
  switch (recorded.type) {
    case 'OAuthClientRegistered': {
      const d = recorded.data as OAuthClientRegistered;
      const details = {
        clientName: d.clientName,
        scopes: d.scopes.join(' '),
        redirectHosts: d.redirectUris.map(hostOf).join(','),
        authMethod: d.tokenEndpointAuthMethod,
      };
      return { time, event: 'client-registered', clientId: d.clientId, userId: null, details };
    }
    case 'OAuthGrantApproved': {
      const d = recorded.data as OAuthGrantApproved;
      known.grants.set(d.grantId, { clientId: d.clientId, userId: d.userId });
      const details = {
        grantId: d.grantId,
        scopes: d.scopes.join(' '),
        organizationId: d.organizationId ?? '*',
        redirectHost: hostOf(d.redirectUri),
      };
      return { time, event: 'grant-approved', clientId: d.clientId, userId: d.userId, details };
    }
    case 'OAuthGrantRevoked': {
      const d = recorded.data as OAuthGrantRevoked;
      const grant = known.grants.get(d.grantId);
      return {
        time,
        event: 'grant-revoked',
        clientId: grant?.clientId ?? null,
        userId: grant?.userId ?? null,
        details: { grantId: d.grantId, reason: d.reason },
      };
    }
    case 'OAuthFamilyStarted': {
      const d = recorded.data as OAuthFamilyStarted;
      known.families.set(d.familyId, { clientId: d.clientId, userId: d.userId, grantId: d.grantId });
      return null;
    }
    case 'RefreshFamilyRevoked': {
      const { reason } = recorded.data as RefreshFamilyRevoked;
      const family = known.families.get(recorded.streamId.slice('session-'.length));
      if (!family || (reason !== 'reuse' && reason !== 'codeReuse')) return null;
      const event = reason === 'reuse' ? 'token-reuse-detected' : 'code-reuse-detected';
      return { time, event, clientId: family.clientId, userId: family.userId, details: { grantId: family.grantId } };
    }
    default:
      return null;
  }
}

function matches(entry: OAuthAuditEntry, filter: OAuthAuditFilter): boolean {
  if (filter.clientId !== undefined && entry.clientId !== filter.clientId) return false;
  if (filter.userId !== undefined && entry.userId !== filter.userId) return false;
  const ms = Date.parse(entry.time);
  return (filter.sinceMs === undefined || ms >= filter.sinceMs) && (filter.untilMs === undefined || ms <= filter.untilMs);
}

/** OAuth client, grant and reuse events read from the event log itself, in log order, filtered. */
export async function readOAuthAudit(eventStore: EventStore, filter: OAuthAuditFilter = {}): Promise<OAuthAuditEntry[]> {
  const known: Known = { grants: new Map(), families: new Map() };
  return readAuditEntries(eventStore, [streamCategories.oauth, streamCategories.session], (recorded) => {
    const entry = toEntry(recorded, known);
    return entry && matches(entry, filter) ? entry : null;
  });
}

/** `--json`: JSON Lines `{time, event, clientId, userId, details}`. */
export function formatOAuthAuditJsonLines(entries: readonly OAuthAuditEntry[]): string {
  return formatAuditJsonLines(entries.map((e) => ({ time: e.time, event: e.event, clientId: e.clientId, userId: e.userId, details: e.details })));
}

const HEADERS = ['TIME', 'EVENT', 'CLIENT', 'USER', 'DETAILS'] as const;

/** The default table: one header line, columns padded to their widest value. */
export function formatOAuthAuditTable(entries: readonly OAuthAuditEntry[]): string {
  const details = (d: Readonly<Record<string, unknown>>): string =>
    Object.entries(d)
      .filter(([, value]) => value !== null && value !== '')
      .map(([key, value]) => `${key}=${key === 'clientName' ? JSON.stringify(value) : String(value)}`)
      .join(' ');
  const rows = entries.map((e) => [e.time, e.event, e.clientId ?? '-', e.userId ?? '-', details(e.details)]);
  return formatAuditTable(HEADERS, rows);
}
