import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { systemClock } from '../../contracts/index.ts';
import type { CommandInput, CommandType, Position, Principal } from '../../contracts/index.ts';
import { createBranchCommandHandlers, createCommandService, createSqliteEventStore, createSystemStateSource } from '../../command-service/index.ts';
import { TEST_COMMAND_CONFIG } from '../../command-service/testing/commandConfig.ts';

export type SeededTable = {
  readonly organizationId: string;
  readonly projectName: string;
  readonly tableId: string;
  readonly draftRevisionId: string;
  /** Position of the last append. */
  readonly position: Position | null;
};

export type SeedOptions = {
  readonly dataDir: string;
  /** Used when the log is still empty (the admin user is created then). */
  readonly adminPassword: string;
  readonly projectName: string;
  readonly rows: number;
  /** Rows per CreateRows command (one event each); default 1000 (the bulk limit). */
  readonly batch?: number;
};

export const SEED_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'n', 'tag'],
  properties: { name: { type: 'string', default: '' }, n: { type: 'number', default: 0 }, tag: { type: 'string', default: '' } },
};

/**
 * Writes a project (organization `admin`) with table `items` and `rows` rows straight through the command gateway
 * into DATA_DIR/events.db, as the admin user: the same checks and events as API calls, without HTTP. Processes
 * sharing the DATA_DIR see the appends (the projectors project them).
 */
export async function seedRows(options: SeedOptions): Promise<SeededTable> {
  await mkdir(options.dataDir, { recursive: true });
  const eventStore = createSqliteEventStore({ file: join(options.dataDir, 'events.db') });
  const systemState = createSystemStateSource({ eventStore });
  const service = createCommandService({
    eventStore,
    systemState,
    clock: systemClock,
    log: pino({ level: 'silent' }),
    branchHandlers: createBranchCommandHandlers,
    config: { ...TEST_COMMAND_CONFIG, adminPassword: options.adminPassword },
  });
  try {
    await service.start();
    const admin = [...(await systemState.current()).users.values()].find((u) => u.username === 'admin');
    if (!admin) throw new Error('no admin user');
    const principal: Principal = { kind: 'user', userId: admin.id, username: 'admin', via: 'jwt', sid: null, key: null };
    let position: Position | null = null;
    let n = 0;
    const run = async <K extends CommandType>(type: K, input: CommandInput<K>): Promise<void> => {
      const outcome = await service.gateway.execute(type, input, { principal, correlationId: `seed-${++n}` });
      position = outcome.position ?? position;
    };
    const draft = async (): Promise<string> => {
      const state = await systemState.current();
      const project = [...state.projects.values()].find((p) => p.name === options.projectName && !p.deleted);
      const branch = project && state.branches.get(project.rootBranchId);
      if (!branch) throw new Error(`project ${options.projectName} missing`);
      return branch.draftRevisionId;
    };
    await run('CreateProject', { organizationId: 'admin', projectName: options.projectName });
    await run('CreateTable', { revisionId: await draft(), tableId: 'items', schema: SEED_SCHEMA });
    const batch = options.batch ?? 1000;
    for (let offset = 0; offset < options.rows; offset += batch) {
      const rows = Array.from({ length: Math.min(batch, options.rows - offset) }, (_, i) => {
        const k = offset + i;
        return { rowId: `r${k}`, data: { name: `row ${k}`, n: k, tag: k % 2 === 0 ? 'even' : 'odd' } };
      });
      await run('CreateRows', { revisionId: await draft(), tableId: 'items', rows, bulk: true });
    }
    return { organizationId: 'admin', projectName: options.projectName, tableId: 'items', draftRevisionId: await draft(), position };
  } finally {
    await service.stop();
    await eventStore.close();
  }
}
