// Group commit under a crash: `strata serve` is SIGKILLed while 50 writers create rows on one draft (batches in
// flight). After a restart on the same data, every acknowledged write is in the log exactly once and in the views,
// the log is gap-free (no partial batch), and nothing that was not in the log appears in the views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteEventStore } from '../../command-service/index.ts';
import { sqliteGlobalPosition } from '../../contracts/index.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

const ADMIN_PASSWORD = 'write-crash-admin-1';
const WRITERS = 50;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies
async function call(server: StrataProcess, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

async function login(server: StrataProcess): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

/**
 * The crash run on `master`, or on a branch of a branch of it (`grandchild`: rows it writes are read through three
 * copy-on-write layers, and the write side's decision state reads HEAD through them too).
 */
async function crashRun(onBranchOfBranch: boolean): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-write-crash-'));
  const env = { DATA_DIR: dir, ADMIN_PASSWORD };
  let server = await startStrataProcess(env);
  try {
    let token = await login(server);
    assert.equal((await call(server, token, 'POST', '/api/organization/admin/projects', { projectName: 'crash' })).status, 201);
    const branch = '/api/organization/admin/project/crash/branch/master';
    const draft = (await call(server, token, 'GET', branch)).body.draftRevisionId as string;
    const schema = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };
    assert.equal((await call(server, token, 'POST', `/api/revision/${draft}/tables`, { tableId: 'items', schema })).status, 201);
    let target = 'master';
    let writeDraft = draft;
    if (onBranchOfBranch) {
      // master commits a seed row, child branches from it, grandchild from child's start: the writes land two
      // branches down, on rows of a table it inherits.
      assert.equal((await call(server, token, 'POST', `/api/revision/${draft}/table/items/rows`, { rowId: 'seed', data: { n: 0 } })).status, 201);
      assert.equal((await call(server, token, 'POST', `${branch}/revisions`, { comment: 'seed' })).status, 201);
      let from = (await call(server, token, 'GET', branch)).body.headRevisionId as string;
      for (const name of ['child', 'grandchild']) {
        assert.equal((await call(server, token, 'POST', `/api/revision/${from}/branches`, { branchName: name })).status, 201);
        const created = (await call(server, token, 'GET', `/api/organization/admin/project/crash/branch/${name}`)).body;
        from = created.headRevisionId as string;
        writeDraft = created.draftRevisionId as string;
      }
      target = 'grandchild';
    }
    assert.equal((await call(server, token, 'POST', `/api/revision/${writeDraft}/endpoints`, { type: 'REST_API' })).status, 201);
    const rows = `/endpoint/rest/admin/crash/${target}/draft/tables/items/rows`;

    // 50 writers, each creating rows one after another until the server dies; the kill comes once 300 are answered.
    const acknowledged: string[] = [];
    let next = 0;
    const writer = async (): Promise<void> => {
      for (;;) {
        const id = `r${next++}`;
        try {
          const reply = await call(server, token, 'POST', rows, { id, data: { n: next } });
          assert.equal(reply.status, 201, JSON.stringify(reply.body));
          acknowledged.push(id);
        } catch (err) {
          if (err instanceof assert.AssertionError) throw err;
          return; // the connection died with the server: this write was never acknowledged
        }
        if (acknowledged.length === 300) void server.kill();
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    assert.ok(acknowledged.length >= 300, `${acknowledged.length} writes acknowledged before the kill`);

    // The log: gap-free positions, each acknowledged row created exactly once, no row created twice.
    const eventStore = createSqliteEventStore({ file: join(dir, 'events.db') });
    const log = await eventStore.readAll(null, { maxCount: 1_000_000 });
    await eventStore.close();
    log.forEach((event, i) => assert.equal(sqliteGlobalPosition(event.position), i + 1, 'positions are gap-free'));
    const created = log.filter((e) => e.type === 'RowsCreated').flatMap((e) => (e.data as { rows: { rowId: string }[] }).rows.map((r) => r.rowId));
    assert.equal(new Set(created).size, created.length, 'no row is created twice');
    const inLog = new Set(created);
    for (const id of acknowledged) assert.ok(inLog.has(id), `acknowledged write ${id} is in the log`);

    // After a restart the views converge to exactly the log.
    server = await startStrataProcess(env);
    token = await login(server);
    // A page and its totalCount are two reads: while the views catch up, the count can already see rows the page
    // did not, so the wait is for a page that holds them all (on a timeout the last page shows what is missing).
    const page = async (): Promise<{ totalCount: number; edges: unknown[] }> => (await call(server, token, 'GET', `${rows}?first=1000`)).body;
    const listed = await until('views caught up', 60_000, async () => {
      const body = await page();
      return body.totalCount === created.length && body.edges.length === created.length ? body : undefined;
    }).catch(page);
    const ids = new Set((listed.edges as { node: { id: string } }[]).map((edge) => edge.node.id));
    assert.deepEqual(ids, inLog);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

test('SIGKILL during batched writes loses no acknowledged write and leaves no partial batch', () => crashRun(false));

test('SIGKILL during batched writes on a branch of a branch loses nothing', () => crashRun(true));
