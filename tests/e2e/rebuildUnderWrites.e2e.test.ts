// operations.md §5 with every process real: `strata projections rebuild rows` in a CLI process while a reader and a
// writer loop against `strata serve`. Every read and write succeeds, no projection is left `failed` (a rebuild only
// ever holds the lock of its own shadow file), the rows are the same before and after, and the old version's file
// is deleted: the views folder shrinks back (projection-worker/adapters/sqlite/sqliteViewFiles.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rowViews } from '../../contracts/index.ts';
import { seedRows, type SeededTable } from '../support/seedRows.ts';
import { spawnStrata, startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const ROWS = 5_000;
const ADMIN_PASSWORD = 'rebuild-writes-password';
let dir = '';
let dataDir = '';
let server: StrataProcess;
let seeded: SeededTable;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-rebuild-writes-'));
  dataDir = join(dir, 'data');
  seeded = await seedRows({ dataDir, adminPassword: ADMIN_PASSWORD, projectName: 'busy', rows: ROWS });
  server = await startStrataProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD, CONSISTENCY_TIMEOUT_MS: '60000' });
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnStrata(args, { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The version files of the `rows` projection in DATA_DIR/views. */
const rowsFiles = (): string[] => readdirSync(join(dataDir, 'views')).filter((name) => name.startsWith('rows.v') && name.endsWith('.db'));

test('a CLI rebuild of rows while a reader and a writer loop on the server: nothing fails, nothing changes, the old file goes', async () => {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  assert.equal(login.status, 200);
  const auth = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
  const rowsUrl = `${server.url}/api/revision/${seeded.draftRevisionId}/table/items/rows`;
  let position = seeded.position ?? '';

  /** Every row of the draft: id -> data, read at least at the last write's position. */
  async function allRows(): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    let cursor: string | null = null;
    for (;;) {
      const page = `${rowsUrl}?first=1000${cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`}`;
      const res = await fetch(page, { headers: { ...auth, 'x-strata-min-position': position } });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json;
      for (const edge of body.edges) out[edge.node.id] = edge.node.data;
      if (!body.pageInfo.hasNextPage) return out;
      cursor = body.pageInfo.endCursor;
    }
  }

  const before = await allRows();
  assert.equal(Object.keys(before).length, ROWS);
  const [oldFile] = rowsFiles();
  assert.ok(oldFile !== undefined && rowsFiles().length === 1, rowsFiles().join(', '));

  let running = true;
  const failures: string[] = [];
  let reads = 0;
  let written = 0;
  const reader = (async () => {
    while (running) {
      try {
        const id = `r${reads % 7}`;
        const list = await fetch(`${rowsUrl}?first=20`, { headers: auth });
        const page = (await list.json()) as Json;
        if (list.status !== 200 || page.totalCount < ROWS) failures.push(`list: ${list.status} ${JSON.stringify(page).slice(0, 200)}`);
        const one = await fetch(`${rowsUrl.replace(/\/rows$/, '')}/row/${id}`, { headers: auth });
        if (one.status !== 200 && one.status !== 404) failures.push(`row ${id}: ${one.status} ${(await one.text()).slice(0, 200)}`);
        else await one.arrayBuffer();
        reads += 1;
      } catch (err) {
        failures.push(`read: ${String(err)}`);
      }
    }
  })();
  const writer = (async () => {
    while (running) {
      try {
        const res = await fetch(rowsUrl, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ rowId: `w${written}`, data: { name: `written ${written}`, n: written, tag: 'w' } }),
        });
        if (res.status !== 201) failures.push(`write: ${res.status} ${(await res.text()).slice(0, 200)}`);
        else {
          position = res.headers.get('x-strata-position') ?? position;
          await res.arrayBuffer();
          written += 1;
        }
      } catch (err) {
        failures.push(`write: ${String(err)}`);
      }
    }
  })();

  let rebuilt;
  try {
    await until('reads and writes flowing', 20_000, async () => (reads >= 3 && written >= 3 ? true : undefined));
    rebuilt = await runCli(['projections', 'rebuild', 'rows', '--yes']);
    const [readsThen, writtenThen] = [reads, written];
    await until('reads and writes after the switch', 20_000, async () => (reads >= readsThen + 5 && written >= writtenThen + 5 ? true : undefined));
  } finally {
    running = false;
    await Promise.all([reader, writer]);
  }
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.match(rebuilt.stdout, new RegExp(`rows: rebuilt \\d+ events into version ${rowViews.version + 1}`));
  assert.deepEqual(failures, []);

  const statuses = await fetch(`${server.url}/api/projections`, { headers: auth });
  assert.equal(statuses.status, 200);
  const projections = (await statuses.json()) as { name: string; version: number; status: string; error: string | null }[];
  assert.deepEqual(
    projections.filter((p) => p.status === 'failed' || p.error !== null),
    [],
  );
  assert.equal(projections.find((p) => p.name === 'rows')?.version, rowViews.version + 1);

  const afterRows = await allRows();
  const expected: Record<string, unknown> = { ...before };
  for (let i = 0; i < written; i++) expected[`w${i}`] = { name: `written ${i}`, n: i, tag: 'w' };
  assert.deepEqual(afterRows, expected);

  assert.ok(!existsSync(join(dataDir, 'views', oldFile)), `${oldFile} is deleted`);
  assert.equal(rowsFiles().length, 1, rowsFiles().join(', '));
  assert.notEqual(rowsFiles()[0], oldFile);
});
