import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { directoryStreamId, organizationStreamId } from '../../contracts/index.ts';
import type { CommandContext, EventStore, NewEvent, PresentedCredentials, Principal, SystemRole } from '../../contracts/index.ts';
import { createSqliteEventStore } from '../adapters/sqliteEventStore.ts';
import { createCommandService } from '../createCommandService.ts';
import type { CommandService, CommandServiceConfig } from '../createCommandService.ts';
import { newId } from '../ids.ts';
import { createSystemStateSource } from '../state/systemStateSource.ts';
import { hashPassword } from '../sessions/passwords.ts';

/**
 * Test support (imported by *.int.test.ts only): command services over one real SQLite log with a controllable
 * clock and captured log lines. Each `replica()` opens the file again with its own system state, like another
 * process sharing DATA_DIR.
 */
export const PASSWORD = 'correct-horse-battery';
export const START_MS = Date.UTC(2026, 0, 1);

export type AuthWorld = {
  readonly clock: { ms: number; now(): number };
  readonly lines: Record<string, unknown>[];
  readonly store: EventStore;
  readonly service: CommandService;
  replica(): CommandService;
  /** Appends to the directory stream (users, organizations, memberships) as `system`. */
  directory(...events: readonly (readonly [string, unknown])[]): Promise<void>;
  user(userId: string, username: string, role?: SystemRole): Promise<void>;
  /** A shared (not personal) organization with its members: [userId, username, organization role]. */
  organization(organizationId: string, ...members: readonly (readonly [string, string, string])[]): Promise<void>;
  project(organizationId: string, projectId: string, name: string, isPublic?: boolean): Promise<void>;
  /** A JWT user principal (as the authenticator returns for a bearer token). */
  jwtUser(userId: string, username: string): Principal;
  login(username: string, service?: CommandService): Promise<{ accessToken: string; refreshToken: string; familyId: string }>;
  close(): Promise<void>;
};

export const AUTH_TEST_SECRET = 'an-auth-test-secret-that-is-32-bytes-or-more';

const stepConfig: CommandServiceConfig = {
  jwtSecret: AUTH_TEST_SECRET,
  accessTokenTtlSeconds: 1800,
  loginMaxFailures: 100,
  loginMaxFailuresPerIp: 100,
  loginWindowMs: 60_000,
  adminPassword: 'unused-admin-password',
};

const notHere = async (): Promise<never> => {
  throw new Error('branch content is not part of the auth tests');
};
const branchHandlers = Object.fromEntries(
  [
    'CreateRevision',
    'RevertChanges',
    'CreateTable',
    'UpdateTable',
    'RenameTable',
    'DeleteTable',
    'CreateRows',
    'UpdateRows',
    'PatchRows',
    'RenameRow',
    'DeleteRows',
  ].map((name) => [name, notHere]),
) as unknown as NonNullable<Parameters<typeof createCommandService>[0]['branchHandlers']>;

function systemEvent(type: string, data: unknown, time: string): NewEvent {
  return { type, schemaVersion: 1, data, metadata: { eventId: newId(), correlationId: 'setup', causationId: null, principal: 'system', time } };
}

export async function openAuthWorld(config: Partial<CommandServiceConfig> = {}): Promise<AuthWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-auth-'));
  const file = join(dir, 'events.db');
  const clock = { ms: START_MS, now: () => clock.ms };
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const stores: EventStore[] = [];
  const fullConfig = { ...stepConfig, ...config };

  function replica(): CommandService {
    const store = createSqliteEventStore({ file });
    stores.push(store);
    const systemState = createSystemStateSource({ eventStore: store });
    return createCommandService({ eventStore: store, systemState, clock, log, config: fullConfig, branchHandlers });
  }
  const service = replica();
  const store = stores[0] as EventStore;
  const time = (): string => new Date(clock.ms).toISOString();
  const hash = await hashPassword(PASSWORD);

  const world: AuthWorld = {
    clock,
    lines,
    store,
    service,
    replica,
    async directory(...events) {
      await store.append(
        directoryStreamId,
        events.map(([type, data]) => systemEvent(type, data, time())),
        'any',
      );
    },
    async user(userId, username, role = 'systemUser') {
      await world.directory(
        ['UserCreated', { userId, username, email: null, role, passwordHash: hash }],
        ['OrganizationCreated', { organizationId: username, isPersonal: true }],
        ['OrganizationMemberSet', { organizationId: username, userId, username, role: 'organizationOwner' }],
      );
    },
    async organization(organizationId, ...members) {
      await world.directory(
        ['OrganizationCreated', { organizationId, isPersonal: false }],
        ...members.map(([userId, username, role]) => ['OrganizationMemberSet', { organizationId, userId, username, role }] as const),
      );
    },
    async project(organizationId, projectId, name, isPublic = false) {
      const rootBranch = { branchId: `${projectId}-b`, name: 'master', startRevisionId: `${projectId}-r0`, draftRevisionId: `${projectId}-r1` };
      const event = systemEvent('ProjectCreated', { projectId, organizationId, name, isPublic, rootBranch }, time());
      await store.append(organizationStreamId(organizationId), [event], 'any');
    },
    jwtUser: (userId, username) => ({ kind: 'user', userId, username, via: 'jwt', sid: 'sid-test', key: null }),
    async login(username, on = service) {
      const result = await on.authenticator.login({ username, password: PASSWORD, clientIp: '10.0.0.1' });
      return { accessToken: result.accessToken, refreshToken: result.refreshToken ?? '', familyId: result.familyId };
    },
    async close() {
      for (const opened of stores) await opened.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

export const as = (principal: Principal): CommandContext => ({ principal, correlationId: `req-${newId()}` });

export const none: PresentedCredentials = { authorization: null, apiKeyHeader: null, apiKeyQuery: null, accessTokenCookies: [] };
export const bearer = (token: string): PresentedCredentials => ({ ...none, authorization: `Bearer ${token}` });
export const apiKeyHeader = (key: string): PresentedCredentials => ({ ...none, apiKeyHeader: key });
