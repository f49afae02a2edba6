import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { CommandInput, CommandResult, CommandType, KeyScope, Position, Principal, SystemState, ViewStore } from '../../contracts/index.ts';
import { createBranchCommandHandlers, createCommandService, createSqliteEventStore, createSystemStateSource } from '../../command-service/index.ts';
import type { CommandService } from '../../command-service/index.ts';
import { allProjectors, createSqliteViewStore } from '../../projection-worker/index.ts';
import { createSystemOperations } from '../../query-service/index.ts';
import type { RequestContext, SystemOperations } from '../../query-service/index.ts';
import { TEST_COMMAND_CONFIG } from '../../command-service/testing/commandConfig.ts';

/**
 * A whole deployment in one process for read-side tests: the real command service appends events to a SQLite log,
 * the real projectors build the views, and the system operations read them.
 */
export type OperationsWorld = {
  readonly service: CommandService;
  readonly views: ViewStore;
  readonly ops: SystemOperations;
  /** Runs a command as `principal` (through the gateway: the same checks and events as an API call). */
  run<K extends CommandType>(type: K, input: CommandInput<K>, principal: Principal): Promise<CommandResult<K>>;
  /** Applies every event of the log to every projection. */
  project(): Promise<void>;
  state(): Promise<SystemState>;
  user(username: string, key?: Partial<KeyScope>): Principal;
  ctx(principal: Principal): RequestContext;
  admin: Principal;
  close(): Promise<void>;
};

const config = TEST_COMMAND_CONFIG;

export function keyScope(scope: Partial<KeyScope> = {}): KeyScope {
  return { keyId: 'k1', organizationId: null, projectIds: null, branchNames: null, tableIds: null, readOnly: false, ...scope };
}

export async function openOperationsWorld(): Promise<OperationsWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-operations-'));
  const log = pino({ level: 'silent' });
  let now = Date.UTC(2025, 0, 1);
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  const systemState = createSystemStateSource({ eventStore });
  const service = createCommandService({
    eventStore,
    systemState,
    // 1 ms per reading: every write has its own time, so default orders (createdAt) are deterministic.
    clock: { now: () => now++ },
    log,
    config,
    branchHandlers: (deps) => createBranchCommandHandlers(deps),
  });
  await service.start();
  const views = createSqliteViewStore({ file: join(dir, 'views.db') });
  for (const projector of allProjectors) await views.ensureProjection(projector.spec);
  const checkpoints = new Map<string, Position | null>();
  const ops = createSystemOperations({ viewStore: views, systemState, log });
  let snapshot = await systemState.current();
  let requests = 0;

  function user(username: string, key?: Partial<KeyScope>): Principal {
    const record = [...snapshot.users.values()].find((u) => u.username === username);
    if (!record) throw new Error(`no user ${username}`);
    const via = key === undefined ? 'jwt' : 'personalKey';
    return { kind: 'user', userId: record.id, username, via, sid: null, key: key === undefined ? null : keyScope(key) };
  }

  return {
    service,
    views,
    ops,
    async run(type, input, principal) {
      const outcome = await service.gateway.execute(type, input, { principal, correlationId: `req-${++requests}` });
      snapshot = await systemState.current();
      return outcome.result;
    },
    async project() {
      for (const projector of allProjectors) {
        const ref = { name: projector.spec.name, version: projector.spec.version };
        for (;;) {
          const after = checkpoints.get(ref.name) ?? null;
          const events = await eventStore.readAll(after, { categories: projector.categories, maxCount: 200 });
          const last = events.at(-1);
          if (last === undefined) break;
          const applied = await views.applyBatch(ref, after, last.position, projector.apply(events));
          if (!applied) throw new Error(`checkpoint conflict in ${ref.name}`);
          checkpoints.set(ref.name, last.position);
        }
      }
    },
    state: () => systemState.current(),
    user,
    ctx: (principal) => ({ principal, requestId: `q-${++requests}` }),
    get admin() {
      return user('admin');
    },
    async close() {
      await service.stop();
      await views.close();
      await eventStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
