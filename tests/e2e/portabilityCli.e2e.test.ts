// portability.md §3-§4 between real processes: two `strata serve` instances and the `strata` CLI between them.
// A committed revision of A travels as a bundle into B's draft (dry run first), is committed there, and B's HEAD
// exports the same bundle (ids, schemas, rows); importing it again changes nothing (revisionChanges empty). Tables
// travel as CSV through the CLI; exit codes 0/1/2; an import whose server is SIGKILLed mid-stream leaves nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnStrata, startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';
import { authorsSchema, postsSchema } from './support/systemFixtures.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const ADMIN_PASSWORD = 'portability-admin-password';
let dir = '';
type Instance = { server: StrataProcess; token: string; dataDir: string };
let a: Instance;
let b: Instance;

async function call(at: Instance, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${at.server.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${at.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

async function ok(at: Instance, method: string, path: string, body?: unknown): Promise<Json> {
  const reply = await call(at, method, path, body);
  assert.ok(reply.status === 200 || reply.status === 201, `${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function start(name: string): Promise<Instance> {
  const dataDir = join(dir, name);
  const server = await startStrataProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD });
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const token = ((await res.json()) as { accessToken: string }).accessToken;
  return { server, token, dataDir };
}

/** `strata …` against an instance; resolves with the exit code and output. */
async function cli(at: Instance | null, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const connection = at === null ? [] : ['--url', at.server.url, '--token', at.token];
  const run = spawnStrata([...args, ...connection], {});
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

const branch = (at: Instance): Promise<{ headRevisionId: string; draftRevisionId: string }> =>
  ok(at, 'GET', '/organization/acme/project/blog/branch/master');

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-portability-'));
  [a, b] = await Promise.all([start('a'), start('b')]);
  for (const at of [a, b]) {
    await ok(at, 'POST', '/organizations', { organizationId: 'acme' });
    await ok(at, 'POST', '/organization/acme/projects', { projectName: 'blog' });
  }
  const draft = (await branch(a)).draftRevisionId;
  await ok(a, 'POST', `/revision/${draft}/tables`, {
    tableId: 'posts_later',
    schema: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'string', default: '' } } },
  });
  await ok(a, 'POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema });
  await ok(a, 'POST', `/revision/${draft}/tables`, { tableId: 'posts', schema: postsSchema });
  for (const start of [0, 600]) {
    const rows = Array.from({ length: 600 }, (_, i) => ({
      rowId: `au${String(start + i).padStart(4, '0')}`,
      data: { name: `Ünïcode "${start + i}",\nline`, address: { city: 'Paris', zip: start + i + 0.5 }, tags: [`t${i % 7}`] },
    }));
    await ok(a, 'POST', `/revision/${draft}/table/authors/rows/bulk`, { rows });
  }
  const posts = Array.from({ length: 50 }, (_, i) => ({
    rowId: `p${i}`,
    data: {
      title: `post ${i}`,
      views: i * 1e21,
      author: `au${String(i).padStart(4, '0')}`,
      lines: [{ text: 'l', reviewers: ['au0001', 'au0002'] }],
      self: '',
    },
  }));
  await ok(a, 'POST', `/revision/${draft}/table/posts/rows/bulk`, { rows: posts });
  await ok(a, 'POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'content' });
});

after(async () => {
  await Promise.all([a?.server.kill(), b?.server.kill()]);
  await rm(dir, { recursive: true, force: true });
});

/** A bundle's lines without what names its source (revision id, export time). */
function contentOf(bundle: string): unknown[] {
  const [header, ...rows] = bundle
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const { sourceRevisionId, exportedAt, ...rest } = header;
  assert.equal(typeof sourceRevisionId, 'string');
  assert.equal(typeof exportedAt, 'string');
  return [rest, ...rows];
}

describe('bundles between two instances through the CLI (portability.md §3-§4)', () => {
  test('export A → dry run on B → import → commit: B HEAD exports the same bundle; a second import changes nothing', async () => {
    const fromA = join(dir, 'a.bundle.jsonl');
    const exported = await cli(a, ['bundle', 'export', '--org', 'acme', '--project', 'blog', '--file', fromA]);
    assert.equal(exported.code, 0, exported.stderr);
    const bundleA = await readFile(fromA, 'utf8');
    const header = JSON.parse(bundleA.split('\n')[0] ?? '');
    assert.deepEqual(
      header.tables.map((t: { id: string }) => t.id),
      ['authors', 'posts', 'posts_later'],
      'a table comes after the tables it references',
    );
    assert.equal(bundleA.trimEnd().split('\n').length, 1 + 1200 + 50);

    const dry = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--dry-run', '--file', fromA]);
    assert.equal(dry.code, 0, dry.stderr);
    const preview = JSON.parse(dry.stdout);
    assert.equal(preview.dryRun, true);
    assert.deepEqual(
      preview.tables.map((t: Json) => [t.tableId, t.change, t.rowChanges.added]),
      [
        ['authors', 'ADDED', 1200],
        ['posts', 'ADDED', 50],
        ['posts_later', 'ADDED', 0],
      ],
    );
    assert.equal(preview.totalRowChanges, 1250);
    assert.deepEqual((await ok(b, 'GET', `/revision/${(await branch(b)).draftRevisionId}/tables`)).edges, []);

    const real = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--file', fromA]);
    assert.equal(real.code, 0, real.stderr);
    assert.equal(JSON.parse(real.stdout).created, 1250);
    await ok(b, 'POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'from A' });

    const fromB = join(dir, 'b.bundle.jsonl');
    assert.equal((await cli(b, ['bundle', 'export', '--org', 'acme', '--project', 'blog', '--revision', 'head', '--file', fromB])).code, 0);
    assert.deepEqual(contentOf(await readFile(fromB, 'utf8')), contentOf(bundleA));

    const again = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--file', fromA]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).totalRowChanges, 0);
    const changes = await ok(b, 'GET', `/revision/${(await branch(b)).draftRevisionId}/changes`);
    assert.deepEqual(changes.tables, []);
    assert.equal(changes.totalRowChanges, 0);
  });

  test('merge keeps what the bundle lacks; replace removes it; an invalid line refuses the whole bundle', async () => {
    const draft = (await branch(b)).draftRevisionId;
    await ok(b, 'POST', `/revision/${draft}/tables`, {
      tableId: 'extra',
      schema: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'string', default: '' } } },
    });
    const fromA = join(dir, 'a.bundle.jsonl');
    const merged = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--mode', 'merge', '--file', fromA]);
    assert.equal(merged.code, 0, merged.stderr);
    assert.deepEqual(JSON.parse(merged.stdout).tables, []);
    const replaced = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--mode', 'replace', '--dry-run', '--file', fromA]);
    assert.deepEqual(
      JSON.parse(replaced.stdout).tables.map((t: Json) => [t.tableId, t.change]),
      [['extra', 'REMOVED']],
    );

    const broken = (await readFile(fromA, 'utf8')).replace('"author":"au0003"', '"author":"nobody"');
    const brokenFile = join(dir, 'broken.bundle.jsonl');
    await import('node:fs/promises').then((fs) => fs.writeFile(brokenFile, broken));
    const refused = await cli(b, ['bundle', 'import', '--org', 'acme', '--project', 'blog', '--file', brokenFile]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /IMPORT_INVALID/);
    assert.match(refused.stderr, /\/line\/1225/);
    const tables = await ok(b, 'GET', `/revision/${(await branch(b)).draftRevisionId}/tables`);
    assert.deepEqual(tables.edges.map((e: Json) => e.node.id).sort(), ['authors', 'extra', 'posts', 'posts_later']);
  });
});

describe('table transfer through the CLI (portability.md §4)', () => {
  test('CSV out of A and into B in replace mode; exit codes 1 (refused) and 2 (usage)', async () => {
    const csv = join(dir, 'authors.csv');
    const exported = await cli(a, ['export', '--org', 'acme', '--project', 'blog', '--table', 'authors', '--file', csv]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(await readFile(csv, 'utf8'), /^id,name,address\/city,address\/zip,tags\r\n/);
    const imported = await cli(b, ['import', '--org', 'acme', '--project', 'blog', '--table', 'authors', '--mode', 'replace', '--file', csv]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(JSON.parse(imported.stdout), {
      processed: 1200,
      created: 0,
      updated: 0,
      unchanged: 1200,
      removed: 0,
      invalid: 0,
      errors: [],
      dryRun: false,
    });

    const refused = await cli(b, ['import', '--org', 'acme', '--project', 'blog', '--table', 'nope', '--file', csv]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /TABLE_NOT_FOUND/);
    // Refused before the body is read: the CLI stops sending a large file and reports the answer.
    const large = join(dir, 'large.jsonl');
    await writeFile(large, `${JSON.stringify({ id: 'x', data: { name: 'n'.repeat(200) } })}\n`.repeat(100_000));
    const refusedLarge = await cli(b, ['import', '--org', 'acme', '--project', 'blog', '--table', 'nope', '--file', large]);
    assert.equal(refusedLarge.code, 1, refusedLarge.stderr);
    assert.match(refusedLarge.stderr, /TABLE_NOT_FOUND/);
    assert.equal((await cli(b, ['import', '--project', 'blog', '--table', 'authors'])).code, 2);
  });
});

describe('a server killed mid-import (portability.md §2)', () => {
  test('SIGKILL while the body streams: after a restart the table is as before', async () => {
    const draft = (await branch(b)).draftRevisionId;
    const before = await ok(b, 'GET', `/revision/${draft}/table/authors/rows?first=1`);
    const req = request(`${b.server.url}/api/revision/${draft}/table/authors/import?mode=upsert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/x-ndjson' },
    });
    req.on('error', () => {});
    for (let i = 0; i < 500; i += 1) req.write(`${JSON.stringify({ id: `k${i}`, data: { name: 'k', address: { city: 'x', zip: 1 }, tags: [] } })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await b.server.kill();
    req.destroy();
    b = { ...b, server: await startStrataProcess({ DATA_DIR: b.dataDir, ADMIN_PASSWORD }) };
    const afterRestart = await ok(b, 'GET', `/revision/${draft}/table/authors/rows?first=1`);
    assert.equal(afterRestart.totalCount, before.totalCount);
    assert.equal((await call(b, 'GET', `/revision/${draft}/table/authors/row/k0`)).status, 404);
  });
});
