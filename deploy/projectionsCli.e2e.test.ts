import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { rowViews, schemaViews, systemClock } from '../contracts/index.ts';
import type { NewEvent, Principal } from '../contracts/index.ts';
import { createBranchCommandHandlers, createCommandService, createSqliteEventStore, createSystemStateSource } from '../command-service/index.ts';
import { allProjectors, createInProcessQueue, createProjectionWorker, createSqliteViewStore } from '../projection-worker/index.ts';
import { runCli } from './cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'deploy', 'bin', 'strata.mjs');
let dir = '';
let dataDir = '';

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the real `strata` executable with DATA_DIR set; `input` is piped to standard input. */
function strata(args: string[], options: { input?: string; dataDir?: string } = {}): Promise<Run> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: options.dataDir ?? dataDir, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

type StatusLine = {
  name: string;
  version: number;
  status: string;
  position: string | null;
  head: string | null;
  lag: number;
  updated: string | null;
  error: string | null;
};

/** `projections status --json`, run in this process (the spawned runs cover the executable itself). */
async function statusJson(): Promise<Map<string, StatusLine>> {
  let out = '';
  let err = '';
  const code = await runCli(['projections', 'status', '--json'], {
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
  });
  assert.equal(code, 0, err);
  const lines = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StatusLine);
  return new Map(lines.map((line) => [`${line.name}@${line.version}`, line]));
}

/** A project with table `items` and `rows` rows written through the command gateway (what the API would append). */
async function seedRows(projectName: string, rows: number): Promise<void> {
  const eventStore = createSqliteEventStore({ file: join(dataDir, 'events.db') });
  const systemState = createSystemStateSource({ eventStore });
  const config = {
    jwtSecret: 'x'.repeat(40),
    accessTokenTtlSeconds: 60,
    loginMaxFailures: 5,
    loginMaxFailuresPerIp: 50,
    loginWindowMs: 1000,
    adminPassword: 'cli-admin-password',
  };
  const log = pino({ level: 'silent' });
  const service = createCommandService({ eventStore, systemState, clock: systemClock, log, branchHandlers: createBranchCommandHandlers, config });
  try {
    await service.start();
    const state = await systemState.current();
    const admin = [...state.users.values()].find((u) => u.username === 'admin');
    assert.ok(admin);
    const context = {
      principal: { kind: 'user', userId: admin.id, username: 'admin', via: 'jwt', sid: null, key: null } satisfies Principal,
      correlationId: 'seed',
    };
    await service.gateway.execute('CreateProject', { organizationId: 'admin', projectName }, context);
    const draft = async (): Promise<string> => {
      const current = await systemState.current();
      const project = [...current.projects.values()].find((p) => p.name === projectName);
      return current.branches.get(project?.rootBranchId ?? '')?.draftRevisionId ?? '';
    };
    const schema = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };
    await service.gateway.execute('CreateTable', { revisionId: await draft(), tableId: 'items', schema }, context);
    for (let offset = 0; offset < rows; offset += 1000) {
      const batch = Array.from({ length: Math.min(1000, rows - offset) }, (_, i) => ({ rowId: `r${offset + i}`, data: { n: offset + i } }));
      await service.gateway.execute('CreateRows', { revisionId: await draft(), tableId: 'items', rows: batch, bulk: true }, context);
    }
  } finally {
    await service.stop();
    await eventStore.close();
  }
}

/** Runs every projection once in this process (no server needed). */
async function project(): Promise<void> {
  const eventStore = createSqliteEventStore({ file: join(dataDir, 'events.db') });
  const viewStore = createSqliteViewStore({ file: join(dataDir, 'views.db') });
  const log = pino({ level: 'silent' });
  const worker = createProjectionWorker({
    projectors: allProjectors,
    eventStore,
    viewStore,
    queue: createInProcessQueue(),
    log,
    clock: systemClock,
    owner: 'cli-test',
  });
  try {
    for (const runner of worker.runners) await runner.runOnce();
  } finally {
    await viewStore.close();
    await eventStore.close();
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-projections-cli-'));
  dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  await seedRows('cli', 2500);
  await project();
});
after(() => rm(dir, { recursive: true, force: true }));

/** The spec version of `rows` (a fresh store starts there; each rebuild adds one). */
const ROWS_V = rowViews.version;

describe('strata projections', () => {
  test('status prints every projection at the log head, as a table and as JSON lines', async () => {
    const table = await strata(['projections', 'status']);
    assert.equal(table.code, 0, table.stderr);
    const [header, ...rows] = table.stdout.trimEnd().split('\n');
    assert.match(header ?? '', /^NAME\s+VERSION\s+STATUS\s+POSITION\s+HEAD\s+LAG\s+UPDATED\s+ERROR$/);
    assert.deepEqual(rows.map((row) => row.split(/\s+/)[0]).sort(), ['api-keys', 'catalog', 'directory', 'rows', 'schemas', 'sessions']);
    for (const row of rows) assert.match(row, /^\S+\s+\d+\s+idle\s+s:\d{20}\s+s:\d{20}\s+0\s+\d{4}-\d\d-\d\dT/);

    const statuses = await statusJson();
    const rowsLine = statuses.get(`rows@${ROWS_V}`);
    assert.ok(rowsLine);
    assert.deepEqual(Object.keys(rowsLine), ['name', 'version', 'status', 'position', 'head', 'lag', 'updated', 'error']);
    assert.equal(rowsLine.position, rowsLine.head);
  });

  test('status shows the lag of events no projector has applied', async () => {
    await seedRows('later', 10);
    const rowsLine = (await statusJson()).get(`rows@${ROWS_V}`);
    assert.equal(rowsLine?.status, 'stalled');
    assert.ok((rowsLine?.lag ?? 0) >= 3, `lag ${rowsLine?.lag}`);
    await project();
  });

  test('rebuild replays into the next version, switches readers and drops the old copy', async () => {
    const views = createSqliteViewStore({ file: join(dataDir, 'views.db') });
    const before = await views.count('rows', 'rows');
    await views.close();
    const run = await strata(['projections', 'rebuild', 'rows', '--yes']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`rows: rebuilt \\d+ events into version ${ROWS_V + 1}`));
    // Not a terminal: progress comes as lines.
    assert.match(run.stderr, /rows: \d+\/\d+ events \(100%\)/);
    const statuses = await statusJson();
    assert.equal(statuses.get(`rows@${ROWS_V + 1}`)?.status, 'idle');
    assert.equal(statuses.has(`rows@${ROWS_V}`), false);
    const after = createSqliteViewStore({ file: join(dataDir, 'views.db') });
    assert.equal(await after.count('rows', 'rows'), before);
    await after.close();
  });

  test('rebuild asks first: anything but yes cancels', async () => {
    const no = await strata(['projections', 'rebuild', 'catalog'], { input: 'n\n' });
    assert.equal(no.code, 1);
    assert.match(no.stderr, /\[y\/N\][\s\S]*rebuild cancelled/);
    let asked = '';
    const yes = await runCli(['projections', 'rebuild', 'catalog'], {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdout: () => undefined,
      stderr: () => undefined,
      confirm: async (question) => {
        asked = question;
        return true;
      },
    });
    assert.equal(yes, 0);
    assert.match(asked, /Rebuild projection catalog/);
    assert.equal((await statusJson()).get('catalog@2')?.status, 'idle');
  });

  test('rebuild all rebuilds every projection', async () => {
    const io = { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, stdout: () => undefined, stderr: () => undefined };
    assert.equal(await runCli(['projections', 'rebuild', 'all', '--yes'], io), 0);
    const versions = [...(await statusJson()).keys()].sort();
    assert.deepEqual(versions, ['api-keys@2', 'catalog@3', 'directory@2', `rows@${ROWS_V + 2}`, `schemas@${schemaViews.version + 1}`, 'sessions@2']);
  });

  test('unknown names and usage errors exit 2; unreachable stores exit 2', async () => {
    const unknown = await strata(['projections', 'rebuild', 'nope', '--yes']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown projection "nope"; valid names: directory, catalog, schemas, rows, api-keys, sessions/);
    const quiet = { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, stdout: () => undefined, stderr: () => undefined };
    assert.equal(await runCli(['projections', 'rebuild'], quiet), 2);
    assert.equal(await runCli(['projections', 'status', '--bogus'], quiet), 2);
    const file = join(dir, 'not-a-directory');
    await writeFile(file, 'x');
    const unreachable = await strata(['projections', 'status'], { dataDir: file });
    assert.equal(unreachable.code, 2);
    assert.match(unreachable.stderr, /cannot open the stores/);
  });

  test('a failed rebuild exits 1 and leaves the live copy untouched', async () => {
    const eventStore = createSqliteEventStore({ file: join(dataDir, 'events.db') });
    const broken: NewEvent = {
      type: 'RowsCreated',
      schemaVersion: 1,
      data: { tableKey: 't', draftSeq: 1 },
      metadata: { eventId: 'broken-1', correlationId: 'c', causationId: null, principal: 'system', time: new Date().toISOString() },
    };
    await eventStore.append('branch-broken', [broken], 'any');
    await eventStore.close();
    let err = '';
    const code = await runCli(['projections', 'rebuild', 'rows', '--yes'], {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdout: () => undefined,
      stderr: (text) => void (err += text),
    });
    assert.equal(code, 1);
    assert.match(err, /rebuild of rows failed; the live copy is untouched/);
    const statuses = await statusJson();
    assert.deepEqual(
      [...statuses.keys()].filter((key) => key.startsWith('rows@')),
      [`rows@${ROWS_V + 2}`],
    );
  });
});
