// Imports above one command (versioned-storage.md §6, portability.md §2) through HTTP: 120,000 rows land in one
// append and read back equal; an invalid last line with onError=fail writes nothing; a client that disconnects
// mid-import and a server SIGKILLed mid-import leave the log, the rows, the draft's changes and the feed as they
// were, and their staged events are deleted (at once, and at the next start). The change feed and webhooks read the
// log, so an unchanged log head means they have nothing new to show.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN_PASSWORD, startSystem, type System } from './support/systemHarness.ts';
import { organizationWithProject, systemWithTables, uploadImport } from './support/systemFixtures.ts';
import { startStrataProcess, until, type StrataProcess } from '../support/strataProcess.ts';

const ROWS = 120_000;
const itemsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'n'],
  properties: { title: { type: 'string', default: '' }, n: { type: 'number', default: 0 } },
};
const id = (i: number): string => `r${String(i).padStart(6, '0')}`;
const line = (i: number): string => JSON.stringify({ id: id(i), data: { title: `row ${i}`, n: i } });

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

/** What an interrupted or refused import must leave unchanged. */
async function snapshot(url: string, token: string, draft: string, table: string): Promise<Json> {
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(`${url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const tableView = await get(`/revision/${draft}/table/${table}`);
  const firstRows = await get(`/revision/${draft}/table/${table}/rows?first=5`);
  return {
    count: tableView.count,
    rows: firstRows.edges.map((edge: Json) => edge.node.id),
    changes: (await get(`/revision/${draft}/changes`)).tables,
    hasChanges: (await get(`/revision/${draft}`)).hasChanges,
  };
}

/** Streams `count` lines to an import and resolves once `started()` says the import is staging; then disconnects. */
async function disconnectWhileStaging(importUrl: string, token: string, count: number, started: () => Promise<boolean>, cut: () => Promise<void>) {
  const req = request(importUrl, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' } });
  req.on('error', () => {});
  for (let i = 0; i < count; i += 1) if (!req.write(`${line(i)}\n`)) await new Promise((resolve) => req.once('drain', resolve));
  // The body is not ended: the server waits for more lines after staging what it read.
  await until('the import to stage a chunk', 60_000, async () => ((await started()) ? true : undefined));
  await cut();
  req.destroy();
}

describe('imports above 100,000 rows in one server process', () => {
  let system: System;
  let token = '';
  let draft = '';

  before(async () => {
    ({ system, token, draft } = await systemWithTables('big', ['items', 'refused', 'cut'], itemsSchema));
  });
  after(() => system.close());

  const upload = (table: string, body: string, query = '') => uploadImport(system.url, token, draft, table, body, query);

  test(`${ROWS} rows land in one import and export back equal`, async () => {
    const file = Array.from({ length: ROWS }, (_, i) => line(i)).join('\n');
    const reply = await upload('items', file);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { processed: ROWS, created: ROWS, updated: 0, unchanged: 0, removed: 0, invalid: 0, errors: [], dryRun: false });
    const exported = await fetch(`${system.url}/api/revision/${draft}/table/items/export`, { headers: { Authorization: `Bearer ${token}` } });
    const lines = (await exported.text()).split('\n').filter((text) => text !== '');
    assert.equal(lines.length, ROWS);
    lines.forEach((text, i) => assert.deepEqual(JSON.parse(text), JSON.parse(line(i))));
    assert.deepEqual(await system.stagings(), [], 'the commit leaves no staging');
    // Imported again with upsert: every row is unchanged, nothing is appended.
    const head = await system.headPosition();
    const again = await upload('items', file, '?mode=upsert');
    assert.deepEqual([again.body.unchanged, again.body.updated, again.body.created], [ROWS, 0, 0]);
    assert.equal(await system.headPosition(), head);
  });

  test('an invalid last line with onError=fail writes nothing', async () => {
    const before = await snapshot(system.url, token, draft, 'refused');
    const head = await system.headPosition();
    const file = `${Array.from({ length: ROWS }, (_, i) => line(i)).join('\n')}\nnot json\n`;
    const reply = await upload('refused', file);
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'IMPORT_INVALID');
    assert.equal(reply.body.message, `1 of ${ROWS + 1} lines are invalid; nothing was imported`);
    assert.deepEqual(reply.body.details, [{ path: `/line/${ROWS + 1}`, message: 'BAD_REQUEST: the line is not valid JSON' }]);
    assert.equal(await system.headPosition(), head, 'nothing was appended');
    assert.deepEqual(await snapshot(system.url, token, draft, 'refused'), before);
    assert.deepEqual(await system.stagings(), []);
  });

  test('a client that disconnects while the import is staging leaves nothing', async () => {
    const before = await snapshot(system.url, token, draft, 'cut');
    const head = await system.headPosition();
    await disconnectWhileStaging(
      `${system.url}/api/revision/${draft}/table/cut/import`,
      token,
      110_000,
      async () => (await system.stagings()).some((staging) => staging.events > 0),
      async () => {},
    );
    await until('the staging to be discarded', 30_000, async () => ((await system.stagings()).length === 0 ? true : undefined));
    assert.equal(await system.headPosition(), head);
    assert.deepEqual(await snapshot(system.url, token, draft, 'cut'), before);
  });
});

test('a file past the rows one import may hold is 400 IMPORT_INVALID at the first row too many, and writes nothing', async () => {
  // The limit lowered to 5 rows (1,000,000 in the product), staged from the first row in chunks of 2.
  const system = await startSystem({ stagedImport: { aboveRows: 0, chunkRows: 2, maxRows: 5 } });
  try {
    const token = await system.login('admin', ADMIN_PASSWORD);
    const draft = (await organizationWithProject(system.as(token), 'acme', 'capped')).draftRevisionId;
    assert.equal((await system.as(token).rest('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: itemsSchema })).status, 201);
    const before = await snapshot(system.url, token, draft, 'items');
    const head = await system.headPosition();
    const reply = await uploadImport(system.url, token, draft, 'items', Array.from({ length: 6 }, (_, i) => line(i)).join('\n'));
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'IMPORT_INVALID');
    assert.deepEqual(reply.body.details, [{ path: '/line/6', message: 'IMPORT_INVALID: an import holds at most 5 rows; split the file' }]);
    assert.equal(await system.headPosition(), head, 'nothing was appended');
    assert.deepEqual(await snapshot(system.url, token, draft, 'items'), before);
    assert.deepEqual(await system.stagings(), []);
    // Five rows are within the limit.
    const five = await uploadImport(system.url, token, draft, 'items', Array.from({ length: 5 }, (_, i) => line(i)).join('\n'));
    assert.equal(five.status, 200, JSON.stringify(five.body));
    assert.equal(five.body.created, 5);
  } finally {
    await system.close();
  }
});

describe('a server SIGKILLed while an import is staging', () => {
  const password = 'staged-import-admin-password';
  let dir = '';
  let server: StrataProcess;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-staged-kill-'));
  });
  after(async () => {
    await server?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  test('after a restart the log, rows and changes are as before and the staging is gone', async () => {
    server = await startStrataProcess({ DATA_DIR: dir, ADMIN_PASSWORD: password });
    const login = async (): Promise<string> => {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      return ((await res.json()) as { accessToken: string }).accessToken;
    };
    let token = await login();
    const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
      const res = await fetch(`${server.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
      return res.json();
    };
    await call('POST', '/organizations', { organizationId: 'acme' });
    await call('POST', '/organization/acme/projects', { projectName: 'big', isPublic: false });
    const draft = (await call('GET', '/organization/acme/project/big/branch/master')).draftRevisionId as string;
    await call('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: itemsSchema });
    await call('POST', `/revision/${draft}/table/items/rows`, { rowId: 'kept', data: { title: 'kept', n: 1 } });

    const events = new Database(join(dir, 'events.db'), { readonly: true, fileMustExist: true });
    try {
      const staged = (): number => (events.prepare('SELECT count(*) AS n FROM staged_events').get() as { n: number }).n;
      // The branch streams' last position (a login after the restart appends a session event elsewhere).
      const logHead = (): number =>
        (events.prepare("SELECT MAX(position) AS p FROM events WHERE stream_category = 'branch'").get() as { p: number }).p;
      const before = { head: logHead(), table: await snapshot(server.url, token, draft, 'items') };

      await disconnectWhileStaging(
        `${server.url}/api/revision/${draft}/table/items/import`,
        token,
        110_000,
        async () => staged() > 0,
        async () => {
          await server.kill();
        },
      );
      assert.ok(staged() > 0, 'the killed import left staged events');
      assert.equal(logHead(), before.head, 'nothing reached the log');

      server = await startStrataProcess({ DATA_DIR: dir, ADMIN_PASSWORD: password });
      token = await login();
      await until('the staging of the killed server to be discarded', 30_000, async () => (staged() === 0 ? true : undefined));
      assert.deepEqual({ head: logHead(), table: await snapshot(server.url, token, draft, 'items') }, before);
    } finally {
      events.close();
    }
  });
});
