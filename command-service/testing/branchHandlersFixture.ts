import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { directoryStreamId, organizationStreamId } from '../../contracts/index.ts';
import type { Clock, CommandContext, EventStore, KeyScope, NewEvent, Principal, ViewStore } from '../../contracts/index.ts';
import { createSqliteEventStore } from '../adapters/sqliteEventStore.ts';
import { newId } from '../ids.ts';
import { createSystemStateSource } from '../state/systemStateSource.ts';
import { createBranchCommandHandlers, type BranchCommandHandlers } from '../branches/branchCommandHandlers.ts';

/** Fixture of the branch handler integration tests: a real SQLite log with organization `acme`, project `blog`. */
export const ids = {
  owner: 'u-owner',
  reader: 'u-reader',
  project: 'p-blog',
  main: 'b-main',
  mainStart: 'r-main-0',
  mainDraft: 'r-main-1',
} as const;

export const owner: Principal = { kind: 'user', userId: ids.owner, username: 'owner', via: 'jwt', sid: null, key: null };
export const reader: Principal = { kind: 'user', userId: ids.reader, username: 'reader', via: 'jwt', sid: null, key: null };

/** The owner acting through a personal key with this scope. */
export function ownerKey(scope: Partial<KeyScope>): Principal {
  const key: KeyScope = { keyId: 'k1', organizationId: null, projectIds: null, branchNames: null, tableIds: null, readOnly: false, ...scope };
  return { ...owner, via: 'personalKey', key } as Principal;
}

export const as = (principal: Principal): CommandContext => ({ principal, correlationId: 'req-1' });

/** A clock that moves 1 ms per reading, so every decision has its own time. */
export function createStepClock(start = Date.UTC(2025, 0, 1)): Clock {
  let now = start;
  return { now: () => now++ };
}

function event(type: string, data: unknown): NewEvent {
  const metadata = { eventId: newId(), correlationId: 'setup', causationId: null, principal: 'system', time: '2025-01-01T00:00:00.000Z' };
  return { type, schemaVersion: 1, data, metadata };
}

async function seed(eventStore: EventStore): Promise<void> {
  await eventStore.append(
    directoryStreamId,
    [
      event('UserCreated', { userId: ids.owner, username: 'owner', email: null, role: 'systemUser', passwordHash: 'x' }),
      event('UserCreated', { userId: ids.reader, username: 'reader', email: null, role: 'systemUser', passwordHash: 'x' }),
      event('OrganizationCreated', { organizationId: 'acme', isPersonal: false }),
      event('OrganizationMemberSet', { organizationId: 'acme', userId: ids.owner, role: 'organizationOwner' }),
      event('OrganizationMemberSet', { organizationId: 'acme', userId: ids.reader, role: 'reader' }),
    ],
    'no_stream',
  );
  const rootBranch = { branchId: ids.main, name: 'master', startRevisionId: ids.mainStart, draftRevisionId: ids.mainDraft };
  await eventStore.append(
    organizationStreamId('acme'),
    [event('ProjectCreated', { projectId: ids.project, organizationId: 'acme', name: 'blog', isPublic: false, rootBranch })],
    'no_stream',
  );
}

/** Appends BranchCreated for `name` from a committed revision of another branch. */
export async function createBranchFrom(
  eventStore: EventStore,
  source: { branchId: string; revisionId: string; seq: number },
  branch: { branchId: string; name: string; startRevisionId: string; draftRevisionId: string },
): Promise<void> {
  const data = { ...branch, projectId: ids.project, sourceBranchId: source.branchId, sourceRevisionId: source.revisionId, sourceSeq: source.seq };
  await eventStore.append(organizationStreamId('acme'), [event('BranchCreated', data)], 'any');
}

export type Fixture = {
  readonly eventStore: EventStore;
  /** Handlers as one process sees them: each call gives a new, independent instance (own caches and state). */
  handlers(): BranchCommandHandlers;
};

/**
 * `withFixture` whose handlers decide on the durable decision state (each `handlers()` call: a process with its own
 * state store from `decisionViews`), as deployments do.
 */
export function fixtureWith(decisionViews: () => ViewStore): (run: (fixture: Fixture) => Promise<void>) => Promise<void> {
  return (run) => withFixture(run, decisionViews);
}

export async function withFixture(run: (fixture: Fixture) => Promise<void>, decisionViews?: () => ViewStore): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-branches-'));
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  try {
    await seed(eventStore);
    const clock = createStepClock();
    const log = pino({ level: 'silent' });
    const handlers = (): BranchCommandHandlers =>
      createBranchCommandHandlers({
        eventStore,
        systemState: createSystemStateSource({ eventStore }),
        clock,
        log,
        newId,
        ...(decisionViews ? { decisionViews: decisionViews() } : {}),
      });
    await run({ eventStore, handlers });
  } finally {
    await eventStore.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const itemsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', default: '' } },
};

export const refsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['item'],
  properties: { item: { type: 'string', default: '', foreignKey: 'items' } },
};
