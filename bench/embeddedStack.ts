// The embedded stores, command service and projection worker in this process, as the in-process benchmarks use them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { systemClock } from '../contracts/index.ts';
import type { CommandInput, CommandResult, CommandType, Principal } from '../contracts/index.ts';
import { createBranchCommandHandlers, createCommandService, createSqliteEventStore, createSystemStateSource } from '../command-service/index.ts';
import { allProjectors, createInProcessQueue, createProjectionWorker, createSqliteViewStore } from '../projection-worker/index.ts';

/** The table every in-process bench writes: a name, a number and a tag. */
export const itemsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'n', 'tag'],
  properties: { name: { type: 'string', default: '' }, n: { type: 'number', default: 0 }, tag: { type: 'string', default: '' } },
};

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

/** Starts the stack on a fresh data directory (prefix `dirPrefix`); `close` stops it and removes the directory. */
export async function openEmbeddedStack(dirPrefix: string) {
  const dir = await mkdtemp(join(tmpdir(), dirPrefix));
  const log = pino({ level: 'silent' });
  const eventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
  const viewStore = createSqliteViewStore({ file: join(dir, 'views.db') });
  const decisionViews = createSqliteViewStore({ file: join(dir, 'state.db') });
  const systemState = createSystemStateSource({ eventStore });
  const service = createCommandService({
    eventStore,
    systemState,
    clock: systemClock,
    log,
    branchHandlers: (deps) => createBranchCommandHandlers({ ...deps, decisionViews }),
    config: {
      jwtSecret: 'a-benchmark-secret-that-is-long-enough',
      accessTokenTtlSeconds: 1800,
      loginMaxFailures: 5,
      loginMaxFailuresPerIp: 50,
      loginWindowMs: 900_000,
      adminPassword: 'bench-admin-password',
    },
  });
  const worker = createProjectionWorker({
    projectors: allProjectors,
    eventStore,
    viewStore,
    queue: createInProcessQueue(),
    log,
    clock: systemClock,
    owner: 'bench',
  });
  await service.start();
  await worker.start();
  const adminRecord = [...(await systemState.current()).users.values()].find((u) => u.username === 'admin');
  if (!adminRecord) throw new Error('admin missing');
  const admin: Principal = { kind: 'user', userId: adminRecord.id, username: 'admin', via: 'jwt', sid: null, key: null };
  let requestNo = 0;

  /** Runs a command as the admin and waits until its events are projected. */
  async function write<K extends CommandType>(type: K, input: CommandInput<K>): Promise<CommandResult<K>> {
    const outcome = await service.gateway.execute(type, input, { principal: admin, correlationId: `bench-${++requestNo}` });
    if (outcome.position && !(await worker.waiter.waitFor(outcome.position, 30_000, outcome.projections))) {
      throw new Error(`${type} not projected in time`);
    }
    return outcome.result;
  }

  return {
    log,
    eventStore,
    viewStore,
    systemState,
    service,
    worker,
    admin,
    write,
    async close(): Promise<void> {
      await worker.stop();
      await service.stop();
      await viewStore.close();
      await decisionViews.close();
      await eventStore.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
