// operations.md §5: `strata projections rebuild` replays into a shadow copy while the live copy keeps serving and
// switches readers atomically: a reader hammering the row list of a large table sees no failed read throughout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rowViews } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../../projection-worker/index.ts';
import { seedRows, type SeededTable } from '../support/seedRows.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

const ROWS = 100_000;
const ADMIN_PASSWORD = 'rebuild-admin-password';
const root = fileURLToPath(new URL('../..', import.meta.url));
let dir = '';
let dataDir = '';
let server: StrataProcess;
let seeded: SeededTable;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-rebuild-read-'));
  dataDir = join(dir, 'data');
  // 100 bulk writes of 1,000 rows through the command gateway, then the server projects them on start.
  seeded = await seedRows({ dataDir, adminPassword: ADMIN_PASSWORD, projectName: 'big', rows: ROWS });
  server = await startStrataProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD, CONSISTENCY_TIMEOUT_MS: '60000' });
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'deploy', 'bin', 'strata.mjs'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

test(`rebuilding rows (${ROWS.toLocaleString('en-US')} rows) while a reader lists them fails no read`, async () => {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  assert.equal(login.status, 200);
  const headers = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
  const list = `${server.url}/api/revision/${seeded.draftRevisionId}/table/items/rows?first=20`;

  const first = await fetch(list, { headers: { ...headers, 'x-strata-min-position': seeded.position ?? '' } });
  assert.equal(first.status, 200);
  const expected = (await first.json()) as { totalCount: number; edges: { node: { id: string } }[] };
  assert.equal(expected.totalCount, ROWS);

  let reading = true;
  const failures: string[] = [];
  let reads = 0;
  const reader = (async () => {
    while (reading) {
      try {
        const res = await fetch(list, { headers });
        const body = (await res.json()) as { totalCount?: number; edges?: { node: { id: string } }[] };
        reads += 1;
        if (res.status !== 200) failures.push(`status ${res.status}: ${JSON.stringify(body)}`);
        else if (body.totalCount !== ROWS || body.edges?.[0]?.node.id !== expected.edges[0]?.node.id) {
          failures.push(`unexpected page: total ${String(body.totalCount)}, first ${String(body.edges?.[0]?.node.id)}`);
        }
      } catch (err) {
        failures.push(String(err));
      }
    }
  })();

  let rebuilt;
  try {
    await until('reads flowing', 10_000, async () => (reads >= 3 ? true : undefined));
    rebuilt = await runCli(['projections', 'rebuild', 'rows', '--yes']);
    // Keep reading a moment after the switch and the drop of the old copy.
    const after = reads;
    await until('reads after the switch', 10_000, async () => (reads >= after + 10 ? true : undefined));
  } finally {
    reading = false;
    await reader;
  }
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(rebuilt.stdout, new RegExp(`rows: rebuilt \\d+ events into version ${rowViews.version + 1}`));
  assert.deepEqual(failures, []);
  assert.ok(reads > 10, `only ${reads} reads`);

  const views = createSqliteViewStore({ file: join(dataDir, 'views.db') });
  try {
    const rows = (await views.projectionStatuses()).filter((s) => s.name === 'rows');
    assert.deepEqual(
      rows.map((s) => [s.version, s.active]),
      [[rowViews.version + 1, true]],
    );
    assert.equal(await views.count('rows', 'rows'), ROWS);
  } finally {
    await views.close();
  }
});
