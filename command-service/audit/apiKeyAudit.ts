import { streamCategories } from '../../contracts/index.ts';
import type { ApiKeyCreated, ApiKeyRevoked, ApiKeyType, EventStore, RecordedEvent } from '../../contracts/index.ts';
import { formatAuditJsonLines, formatAuditTable, readAuditEntries } from './auditLog.ts';

/** One line of `strata audit api-keys` (operations.md §5). Never holds a secret or a hash. */
export type ApiKeyAuditEntry = {
  readonly time: string;
  /** `created` (also the replacement made by a rotation), `rotated` (the old key), `revoked`. */
  readonly event: 'created' | 'rotated' | 'revoked';
  readonly keyId: string;
  readonly prefix: string | null;
  readonly type: ApiKeyType | null;
  readonly userId: string | null;
  readonly organizationId: string | null;
  /** User who acted. */
  readonly actorId: string;
  readonly details: Readonly<Record<string, unknown>>;
};

/** All optional; times in ms, both bounds inclusive. `userId` matches the key's owner or the acting user. */
export type ApiKeyAuditFilter = {
  readonly keyId?: string;
  readonly organizationId?: string;
  readonly userId?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
};

type KeyFacts = Pick<ApiKeyAuditEntry, 'prefix' | 'type' | 'userId' | 'organizationId'>;

function toEntry(recorded: RecordedEvent, keys: Map<string, KeyFacts>): ApiKeyAuditEntry | null {
  const time = recorded.metadata.time;
  if (recorded.type === 'ApiKeyCreated') {
    const d = recorded.data as ApiKeyCreated;
    const facts: KeyFacts = { prefix: d.prefix, type: d.type, userId: d.userId, organizationId: d.organizationId };
    keys.set(d.keyId, facts);
    const details = {
      name: d.name,
      projectIds: d.projectIds,
      branchNames: d.branchNames,
      tableIds: d.tableIds,
      readOnly: d.readOnly,
      expiresAt: d.expiresAt,
      permissions: d.permissions,
      rotatedFromId: d.rotatedFromId,
    };
    return { time, event: 'created', keyId: d.keyId, ...facts, actorId: d.createdBy, details };
  }
  if (recorded.type === 'ApiKeyRevoked') {
    const d = recorded.data as ApiKeyRevoked;
    const facts = keys.get(d.keyId) ?? { prefix: null, type: null, userId: null, organizationId: null };
    const event = d.replacedById === null ? 'revoked' : 'rotated';
    return { time, event, keyId: d.keyId, ...facts, actorId: d.revokedBy, details: { replacedById: d.replacedById } };
  }
  return null;
}

function matches(entry: ApiKeyAuditEntry, filter: ApiKeyAuditFilter): boolean {
  if (filter.keyId !== undefined && entry.keyId !== filter.keyId) return false;
  if (filter.organizationId !== undefined && entry.organizationId !== filter.organizationId) return false;
  if (filter.userId !== undefined && entry.userId !== filter.userId && entry.actorId !== filter.userId) return false;
  const ms = Date.parse(entry.time);
  if (filter.sinceMs !== undefined && ms < filter.sinceMs) return false;
  if (filter.untilMs !== undefined && ms > filter.untilMs) return false;
  return true;
}

/** API-key events read from the event log itself (not views), in log order, filtered. */
export async function readApiKeyAudit(eventStore: EventStore, filter: ApiKeyAuditFilter = {}): Promise<ApiKeyAuditEntry[]> {
  const keys = new Map<string, KeyFacts>();
  return readAuditEntries(eventStore, [streamCategories.apiKey], (recorded) => {
    const entry = toEntry(recorded, keys);
    return entry && matches(entry, filter) ? entry : null;
  });
}

/** `--json`: one object per line with the keys of operations.md §5. */
export function formatApiKeyAuditJsonLines(entries: readonly ApiKeyAuditEntry[]): string {
  return formatAuditJsonLines(
    entries.map((e) => ({
      time: e.time,
      event: e.event,
      keyId: e.keyId,
      prefix: e.prefix,
      type: e.type,
      userId: e.userId,
      organizationId: e.organizationId,
      actorId: e.actorId,
      details: e.details,
    })),
  );
}

/** DETAILS column: scope arrays comma-joined (`*` = unrestricted), the name quoted, empty links left out. */
function detailsText(details: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (key === 'name') parts.push(`name=${JSON.stringify(value)}`);
    else if (key === 'projectIds' || key === 'branchNames' || key === 'tableIds') {
      parts.push(`${key}=${Array.isArray(value) ? value.join(',') : '*'}`);
    } else if (key === 'permissions') {
      if (value !== null) parts.push(`rules=${JSON.stringify((value as { rules: unknown }).rules)}`);
    } else if (value !== null) parts.push(`${key}=${String(value)}`);
  }
  return parts.join(' ');
}

const HEADERS = ['TIME', 'EVENT', 'KEY ID', 'PREFIX', 'TYPE', 'OWNER', 'ACTOR', 'DETAILS'] as const;

/** The default table: one header line, columns padded to their widest value. */
export function formatApiKeyAuditTable(entries: readonly ApiKeyAuditEntry[]): string {
  const rows = entries.map((e) => [
    e.time,
    e.event,
    e.keyId,
    e.prefix ?? '-',
    e.type ?? '-',
    (e.type === 'service' ? e.organizationId : e.userId) ?? '-',
    e.actorId,
    detailsText(e.details),
  ]);
  return formatAuditTable(HEADERS, rows);
}
