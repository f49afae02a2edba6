// portability.md §5 with real processes: `strata backup` of a running `strata serve` under a write load,
// `strata restore` elsewhere, and a second server on the copy answering every row the source had at the backup's
// position; a log-only backup restored with its views rebuilt; `strata verify` finding corrupted copies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { spawnStrata, startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const ADMIN_PASSWORD = 'backup-admin-password';
let dir = '';
let source: StrataProcess;

async function call(server: StrataProcess, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}/api${path}`, {
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

async function strata(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnStrata(args, {});
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** Every row of the draft's `items` table: id -> data. */
async function items(server: StrataProcess, token: string): Promise<Record<string, unknown>> {
  const branch = await call(server, token, 'GET', '/organization/acme/project/shop/branch/master');
  const out: Record<string, unknown> = {};
  let after: string | null = null;
  for (;;) {
    const page: { body: Json } = await call(
      server,
      token,
      'GET',
      `/revision/${branch.body.draftRevisionId}/table/items/rows?first=1000${after === null ? '' : `&after=${encodeURIComponent(after)}`}`,
    );
    for (const edge of page.body.edges) out[edge.node.id] = edge.node.data;
    if (!page.body.pageInfo.hasNextPage) return out;
    after = page.body.pageInfo.endCursor;
  }
}

const idOf = (i: number): string => `r${String(i).padStart(5, '0')}`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-backup-'));
  source = await startStrataProcess({ DATA_DIR: join(dir, 'source'), ADMIN_PASSWORD });
  const token = await login(source);
  assert.equal((await call(source, token, 'POST', '/organizations', { organizationId: 'acme' })).status, 201);
  assert.equal((await call(source, token, 'POST', '/organization/acme/projects', { projectName: 'shop' })).status, 201);
  const branch = await call(source, token, 'GET', '/organization/acme/project/shop/branch/master');
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['n', 'label'],
    properties: { n: { type: 'number', default: 0 }, label: { type: 'string', default: '' } },
  };
  assert.equal((await call(source, token, 'POST', `/revision/${branch.body.draftRevisionId}/tables`, { tableId: 'items', schema })).status, 201);
});

after(async () => {
  await source?.kill();
  await rm(dir, { recursive: true, force: true });
});

describe('backup while writing, restore elsewhere (portability.md §5)', () => {
  test('the restored server answers every row the source had at the backup position', async () => {
    const token = await login(source);
    const draft = (await call(source, token, 'GET', '/organization/acme/project/shop/branch/master')).body.draftRevisionId;
    let written = 0;
    let writing = true;
    const load = (async () => {
      while (writing) {
        const reply = await call(source, token, 'POST', `/revision/${draft}/table/items/rows`, {
          rowId: idOf(written),
          data: { n: written, label: `item ${written} ✓` },
        });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        written += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const backup = await strata(['backup', '--data-dir', join(dir, 'source'), '--out', join(dir, 'backup')]);
    const writtenAtEnd = written;
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await load;
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /: \d+ events up to position \d+/);
    assert.ok(written > writtenAtEnd, 'writes went on after the backup');
    // Each projection version is a file of its own beside views.db (projection-worker/adapters/sqlite/sqliteViewFiles.ts).
    const versionFiles = (data: string): string[] => readdirSync(join(data, 'views')).filter((name) => name.endsWith('.db'));
    assert.deepEqual(versionFiles(join(dir, 'backup')).sort(), versionFiles(join(dir, 'source')).sort());
    assert.match(backup.stderr, /copying views\/rows\.v\d+\./);

    const restored = await strata(['restore', '--from', join(dir, 'backup'), '--data-dir', join(dir, 'restored')]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(versionFiles(join(dir, 'restored')).sort(), versionFiles(join(dir, 'backup')).sort());
    const copy = await startStrataProcess({ DATA_DIR: join(dir, 'restored'), ADMIN_PASSWORD });
    try {
      const rows = await items(copy, await login(copy));
      const all = await items(source, token);
      const count = Object.keys(rows).length;
      assert.ok(count > 0 && count < written, `${count} rows restored of ${written}`);
      // A consistent snapshot: the rows written first, each exactly as the source has it.
      assert.deepEqual(
        Object.keys(rows).sort(),
        Array.from({ length: count }, (_, i) => idOf(i)),
      );
      for (const [id, data] of Object.entries(rows)) assert.deepEqual(data, all[id], id);
    } finally {
      await copy.kill();
    }
    const refused = await strata(['restore', '--from', join(dir, 'backup'), '--data-dir', join(dir, 'restored')]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /not empty/);
  });

  test('a log-only backup restores with views rebuilt from the log', async () => {
    const backup = await strata(['backup', '--log-only', '--data-dir', join(dir, 'source'), '--out', join(dir, 'log-only')]);
    assert.equal(backup.code, 0, backup.stderr);
    const restored = await strata(['restore', '--from', join(dir, 'log-only'), '--data-dir', join(dir, 'rebuilt')]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /views rebuilt from the log/);
    const copy = await startStrataProcess({ DATA_DIR: join(dir, 'rebuilt'), ADMIN_PASSWORD });
    try {
      assert.deepEqual(await items(copy, await login(copy)), await items(source, await login(source)));
    } finally {
      await copy.kill();
    }
  });
});

describe('strata verify (portability.md §5)', () => {
  async function corruptedCopy(name: string, corrupt: (db: Database.Database) => void): Promise<string> {
    const target = join(dir, name);
    await mkdir(target, { recursive: true });
    await copyFile(join(dir, 'log-only', 'events.db'), join(target, 'events.db'));
    const db = new Database(join(target, 'events.db'));
    corrupt(db);
    db.close();
    return target;
  }

  test('a sound backup verifies; a broken event and a missing event are named by position', async () => {
    const sound = await strata(['verify', '--data-dir', join(dir, 'log-only')]);
    assert.equal(sound.code, 0, sound.stderr);
    assert.match(sound.stdout, /verify ok: \d+ events in \d+ streams/);

    let broken = 0;
    const unparsable = await corruptedCopy('broken', (db) => {
      broken = db.prepare<[], number>("SELECT MIN(position) FROM events WHERE type = 'RowCreated' OR type LIKE 'Row%'").pluck().get() ?? 0;
      db.prepare('UPDATE events SET data = \'{"rowId": \' WHERE position = ?').run(broken);
    });
    const first = await strata(['verify', '--data-dir', unparsable]);
    assert.equal(first.code, 1);
    assert.match(first.stderr, new RegExp(`position ${broken}: data is not valid JSON`));

    const gap = await corruptedCopy('gap', (db) => {
      const row = db.prepare<[], { stream_id: string; position: number }>('SELECT stream_id, position FROM events WHERE revision = 1 LIMIT 1').get();
      assert.ok(row);
      db.prepare('DELETE FROM events WHERE position = ?').run(row.position);
    });
    const second = await strata(['verify', '--data-dir', gap]);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /stream .+ has revision 2 where 1 was expected/);
  });
});
