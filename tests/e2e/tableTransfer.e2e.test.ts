import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertRestError, startSystem, type Client, type System } from './support/systemHarness.ts';
import { alice, authorsSchema, bob, branchIds, carol, organizationWithProject, postsSchema, type BranchIds } from './support/systemFixtures.ts';
import { parseBody } from './support/parseBody.ts';
import { request } from 'node:http';

// portability.md §1-§2 through the real HTTP surface: exports streamed as JSON Lines and CSV, imports in every mode
// and error policy, round trips of awkward values, atomicity (an invalid line, an aborted upload), and the same
// routes on a generated REST endpoint.
let system: System;
let admin: Client;
let token = '';
let master: BranchIds;
const T = (revision: string, table: string) => `/revision/${revision}/table/${table}`;

/** The awkward values of the round trips: nesting, arrays, unicode, CSV quoting and newlines, extreme numbers. */
const docsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'n', 'ok', 'meta', 'tags'],
  properties: {
    title: { type: 'string', default: '' },
    n: { type: 'number', default: 0 },
    ok: { type: 'boolean', default: false },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['city', 'deep'],
      properties: {
        city: { type: 'string', default: '' },
        deep: { type: 'object', additionalProperties: false, required: ['x'], properties: { x: { type: 'number', default: 0 } } },
      },
    },
    tags: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['k'], properties: { k: { type: 'string', default: '' } } },
    },
  },
};
const awkward: Record<string, unknown> = {
  a1: { title: 'plain', n: 1e21, ok: true, meta: { city: 'Zürich 東京 🎉', deep: { x: -0 } }, tags: [{ k: 'a' }, { k: 'b' }] },
  a2: { title: 'He said "hi",\nthen left;\r\nbye', n: -1.5e-7, ok: false, meta: { city: ' spaced ', deep: { x: 0.1 } }, tags: [] },
  a3: { title: '', n: 123456789012345680000, ok: true, meta: { city: '=1+1', deep: { x: 5e-324 } }, tags: [{ k: '"q"' }] },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test JSON
async function upload(path: string, body: string, contentType: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${system.url}/api${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
    body,
  });
  return { status: res.status, body: parseBody(await res.text()) };
}

async function download(path: string): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(`${system.url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** id -> data of a table, read through the ordinary rows route. */
async function rowsOf(revision: string, table: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  let after: string | null = null;
  for (;;) {
    const query: string = `first=1000${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
    const reply = await admin.rest('GET', `${T(revision, table)}/rows?${query}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    for (const edge of reply.body.edges) out[edge.node.id] = edge.node.data;
    if (!reply.body.pageInfo.hasNextPage) return out;
    after = reply.body.pageInfo.endCursor;
  }
}

async function createTable(tableId: string, schema: unknown): Promise<void> {
  const reply = await admin.rest('POST', `/revision/${master.draftRevisionId}/tables`, { tableId, schema });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

before(async () => {
  system = await startSystem({ importMaxBytes: 1024 * 1024 });
  token = await system.login('admin', ADMIN_PASSWORD);
  admin = system.as(token);
  master = await organizationWithProject(admin, 'acme', 'blog');
  await createTable('docs', docsSchema);
  await createTable('docs_jsonl', docsSchema);
  await createTable('docs_csv', docsSchema);
  const rows = Object.entries(awkward).map(([rowId, data]) => ({ rowId, data }));
  const created = await admin.rest('POST', `${T(master.draftRevisionId, 'docs')}/rows/bulk`, { rows });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await createTable('authors', authorsSchema);
  await createTable('posts', postsSchema);
});
after(() => system.close());

describe('export (portability.md §1)', () => {
  test('JSON Lines: one {id, data} line per row by id, attachment headers; meta=true adds timestamps', async () => {
    const reply = await download(`${T(master.draftRevisionId, 'docs')}/export`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'application/x-ndjson');
    assert.equal(reply.headers.get('content-disposition'), 'attachment; filename="docs.jsonl"');
    const lines = reply.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      lines.map((line) => line.id),
      ['a1', 'a2', 'a3'],
    );
    assert.deepEqual(Object.keys(lines[0]), ['id', 'data']);
    const meta = await download(`${T(master.draftRevisionId, 'docs')}/export?format=jsonl&meta=true`);
    assert.deepEqual(Object.keys(JSON.parse(meta.text.split('\n')[0] ?? '')), ['id', 'data', 'createdAt', 'updatedAt']);
  });

  test('CSV: header of leaf paths, arrays as JSON text, RFC 4180 quoting', async () => {
    const reply = await download(`${T(master.draftRevisionId, 'docs')}/export?format=csv`);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(reply.headers.get('content-disposition'), 'attachment; filename="docs.csv"');
    const [header, first] = reply.text.split('\r\n');
    assert.equal(header, 'id,title,n,ok,meta/city,meta/deep/x,tags');
    assert.equal(first, 'a1,plain,1e+21,true,Zürich 東京 🎉,0,"[{""k"":""a""},{""k"":""b""}]"');
    assert.ok(reply.text.includes('"He said ""hi"",\nthen left;\r\nbye"'));
  });

  test('bad format → 400 BAD_USER_INPUT; unknown table → 404', async () => {
    assertRestError(await admin.rest('GET', `${T(master.draftRevisionId, 'docs')}/export?format=xml`), 400, 'BAD_USER_INPUT');
    assertRestError(await admin.rest('GET', `${T(master.draftRevisionId, 'nope')}/export`), 404, 'TABLE_NOT_FOUND');
  });
});

describe('round trips (portability.md §1-§2)', () => {
  for (const format of ['jsonl', 'csv'] as const) {
    test(`${format}: export → import into an empty table gives equal rows`, async () => {
      const exported = await download(`${T(master.draftRevisionId, 'docs')}/export?format=${format}`);
      const type = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
      const imported = await upload(`${T(master.draftRevisionId, `docs_${format}`)}/import?format=${format}`, exported.text, type);
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      assert.deepEqual(imported.body, { processed: 3, created: 3, updated: 0, unchanged: 0, removed: 0, invalid: 0, errors: [], dryRun: false });
      assert.deepEqual(await rowsOf(master.draftRevisionId, `docs_${format}`), await rowsOf(master.draftRevisionId, 'docs'));
    });
  }
});

describe('import modes and errors (portability.md §2)', () => {
  const authors = (lines: readonly [string, unknown][]): string => lines.map(([id, data]) => JSON.stringify({ id, data })).join('\n');
  const path = () => `${T(master.draftRevisionId, 'authors')}/import`;

  test('insert, then insert again → line errors ROW_ALREADY_EXISTS; upsert counts updated and unchanged; replace removes the rest', async () => {
    const first = await upload(
      path(),
      authors([
        ['alice', alice],
        ['bob', bob],
      ]),
      'application/x-ndjson',
    );
    assert.equal(first.body.created, 2, JSON.stringify(first.body));
    const again = await upload(path(), authors([['alice', alice]]), 'application/x-ndjson');
    assertRestError({ ...again, headers: new Headers() }, 400, 'IMPORT_INVALID');
    assert.equal(again.body.details[0].path, '/line/1');
    assert.match(again.body.details[0].message, /ROW_ALREADY_EXISTS/);

    const upsert = await upload(
      `${path()}?mode=upsert`,
      authors([
        ['alice', alice],
        ['bob', { ...bob, name: 'Bobby' }],
        ['carol', carol],
      ]),
      'application/x-ndjson',
    );
    assert.deepEqual(upsert.body, { processed: 3, created: 1, updated: 1, unchanged: 1, removed: 0, invalid: 0, errors: [], dryRun: false });

    const dry = await upload(`${path()}?mode=replace&dryRun=true`, authors([['carol', carol]]), 'application/x-ndjson');
    assert.deepEqual(dry.body, { processed: 1, created: 0, updated: 0, unchanged: 1, removed: 2, invalid: 0, errors: [], dryRun: true });
    assert.deepEqual(Object.keys(await rowsOf(master.draftRevisionId, 'authors')).sort(), ['alice', 'bob', 'carol']);

    const replace = await upload(`${path()}?mode=replace`, authors([['carol', carol]]), 'application/x-ndjson');
    assert.equal(replace.body.removed, 2, JSON.stringify(replace.body));
    assert.deepEqual(await rowsOf(master.draftRevisionId, 'authors'), { carol });
  });

  test('an invalid line in the middle: onError=fail writes nothing, onError=skip writes the valid lines', async () => {
    const posts = `${T(master.draftRevisionId, 'posts')}/import`;
    const post = (title: string, author: string) => ({ title, views: 1, author, lines: [], self: '' });
    const file = [
      JSON.stringify({ id: 'p1', data: post('one', 'carol') }),
      JSON.stringify({ id: 'p2', data: post('two', 'ghost') }),
      'not json',
      JSON.stringify({ id: 'p3', data: { ...post('three', 'carol'), views: 'many' } }),
      JSON.stringify({ id: 'p4', data: post('four', 'carol') }),
    ].join('\n');
    const refused = await upload(posts, file, 'application/x-ndjson');
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'IMPORT_INVALID');
    assert.equal(refused.body.message, '3 of 5 lines are invalid; nothing was imported');
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['/line/2', '/line/3', '/line/4'],
    );
    assert.match(refused.body.details[0].message, /FOREIGN_KEY_NOT_FOUND/);
    assert.deepEqual(await rowsOf(master.draftRevisionId, 'posts'), {});

    const skipped = await upload(`${posts}?onError=skip`, file, 'application/x-ndjson');
    assert.equal(skipped.status, 200, JSON.stringify(skipped.body));
    assert.equal(skipped.body.created, 2);
    assert.equal(skipped.body.invalid, 3);
    assert.deepEqual(
      skipped.body.errors.map((e: { line: number; rowId: string | null }) => [e.line, e.rowId]),
      [
        [2, 'p2'],
        [3, null],
        [4, 'p3'],
      ],
    );
    assert.deepEqual(Object.keys(await rowsOf(master.draftRevisionId, 'posts')).sort(), ['p1', 'p4']);
  });

  test('CSV problems: unknown column, wrong cell count, bad number; a committed revision; wrong media type', async () => {
    const path = `${T(master.draftRevisionId, 'docs_csv')}/import?mode=upsert`;
    const unknown = await upload(path, 'id,title,colour\r\nx,y,z\r\n', 'text/csv');
    assert.equal(unknown.body.code, 'IMPORT_INVALID', JSON.stringify(unknown.body));
    assert.equal(unknown.body.details[0].path, '/line/1');
    const cells = await upload(`${path}&onError=skip&dryRun=true`, 'id,title,n\r\nx,y\r\nz,w,abc\r\n', 'text/csv');
    assert.deepEqual(
      cells.body.errors.map((e: { line: number; code: string }) => [e.line, e.code]),
      [
        [2, 'BAD_USER_INPUT'],
        [3, 'INVALID_DATA'],
      ],
    );
    assert.equal(cells.body.dryRun, true);
    assertRestError({ ...(await upload(path, 'id\r\n', 'application/json')), headers: new Headers() }, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const committed = await admin.rest('POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'tables' });
    assert.equal(committed.status, 201, JSON.stringify(committed.body));
    const head = committed.body.id as string;
    master = await branchIds(admin, 'acme', 'blog');
    const refused = await upload(`${T(head, 'docs_csv')}/import`, 'id\r\n', 'text/csv');
    assert.equal(refused.body.code, 'REVISION_NOT_DRAFT', JSON.stringify(refused.body));
  });
});

describe('interrupted and oversized uploads (portability.md §2)', () => {
  test('a client that disconnects mid-stream leaves nothing', async () => {
    const before = await rowsOf(master.draftRevisionId, 'docs_jsonl');
    const url = new URL(`${system.url}/api${T(master.draftRevisionId, 'docs_jsonl')}/import?mode=upsert`);
    const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' } });
    req.on('error', () => {});
    req.write(`${JSON.stringify({ id: 'z1', data: awkward.a1 })}\n${JSON.stringify({ id: 'a1', data: awkward.a2 })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await rowsOf(master.draftRevisionId, 'docs_jsonl'), before);
    // The same lines sent whole are written: the disconnect is what kept them out.
    const whole = `${JSON.stringify({ id: 'z1', data: awkward.a1 })}\n${JSON.stringify({ id: 'a1', data: awkward.a2 })}\n`;
    const reply = await upload(`${T(master.draftRevisionId, 'docs_jsonl')}/import?mode=upsert`, whole, 'application/x-ndjson');
    assert.deepEqual([reply.body.created, reply.body.updated], [1, 1], JSON.stringify(reply.body));
  });

  test('more than 100,000 rows are staged and land in one append (versioned-storage.md §6)', async () => {
    const lines = Array.from({ length: 100_001 }, (_, i) => `x${i}`);
    const head = await system.headPosition();
    const reply = await upload(`${T(master.draftRevisionId, 'docs_csv')}/import?mode=upsert`, `id\r\n${lines.join('\r\n')}\r\n`, 'text/csv');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual([reply.body.processed, reply.body.created, reply.body.invalid], [100_001, 100_001, 0]);
    const rows = await rowsOf(master.draftRevisionId, 'docs_csv');
    assert.equal(Object.keys(rows).filter((id) => id.startsWith('x')).length, 100_001);
    assert.deepEqual(rows.x100000, { title: '', n: 0, ok: false, meta: { city: '', deep: { x: 0 } }, tags: [] });
    assert.notEqual(await system.headPosition(), head);
  });

  test('a refusal early in a large body is answered (header refused while the client still sends)', async () => {
    const body = `id,colour\r\n${'x,y\r\n'.repeat(150_000)}`;
    const reply = await fetch(`${system.url}/api${T(master.draftRevisionId, 'docs_csv')}/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    assert.equal(reply.status, 400);
    assert.equal(((await reply.json()) as { code: string }).code, 'IMPORT_INVALID');
  });

  test('refusals before the body is read (unknown table, bad mode) are answered to a client still sending', async () => {
    // The client announces Connection: close and sends 8 MB in 64 KB pieces. Node closes such a connection right after
    // the answer; answering before the body was read made the client's next write fail (EPIPE) before it read the
    // answer. The refusal now waits for the rest of a body under the limit.
    const piece = Buffer.alloc(64 * 1024, 'x\r\n');
    const PIECES = 128;
    const send = (path: string) =>
      new Promise<{ status: number; code: string }>((resolve, reject) => {
        const req = request(new URL(`${system.url}/api${path}`), {
          method: 'POST',
          agent: false,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv', 'Content-Length': piece.length * PIECES },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, code: (JSON.parse(Buffer.concat(chunks).toString()) as { code: string }).code }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        // As a file piped into the request: write until the socket is full, go on when it drains.
        let sent = 0;
        const next = (): void => {
          while (sent < PIECES) {
            sent += 1;
            if (!req.write(piece)) return void req.once('drain', next);
          }
          req.end();
        };
        next();
      });
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await send(`${T(master.draftRevisionId, 'no_such_table')}/import`), { status: 404, code: 'TABLE_NOT_FOUND' });
      assert.deepEqual(await send(`${T(master.draftRevisionId, 'docs_csv')}/import?mode=sideways`), { status: 400, code: 'BAD_USER_INPUT' });
    }
  });

  test('a body over IMPORT_MAX_BYTES → 413 PAYLOAD_TOO_LARGE, nothing written (declared or streamed)', async () => {
    const line = `${JSON.stringify({ id: 'big', data: { ...(awkward.a1 as object), title: 'x'.repeat(2000) } })}\n`;
    const body = line.repeat(2000);
    const reply = await upload(`${T(master.draftRevisionId, 'docs_jsonl')}/import?mode=upsert`, body, 'application/x-ndjson');
    assert.equal(reply.status, 413, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'PAYLOAD_TOO_LARGE');
    const streamed = await fetch(`${system.url}/api${T(master.draftRevisionId, 'docs_jsonl')}/import?mode=upsert`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal((await rowsOf(master.draftRevisionId, 'docs_jsonl')).big, undefined);
  });
});

describe('generated REST endpoints and key scopes (portability.md §1-§2)', () => {
  test('B/tables/{table}/export on head and draft; import only on the draft endpoint', async () => {
    const branch = await admin.rest('GET', '/organization/acme/project/blog/branch/master');
    for (const type of ['REST_API']) {
      assert.equal((await admin.rest('POST', `/revision/${branch.body.draftRevisionId}/endpoints`, { type })).status, 201);
      assert.equal((await admin.rest('POST', `/revision/${branch.body.headRevisionId}/endpoints`, { type })).status, 201);
    }
    const B = (mode: string) => `${system.url}/endpoint/rest/acme/blog/master/${mode}/tables`;
    const auth = { Authorization: `Bearer ${token}` };
    const head = await fetch(`${B('head')}/docs/export?format=csv`, { headers: auth });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-disposition'), 'attachment; filename="docs.csv"');
    assert.equal((await head.text()).split('\r\n')[0], 'id,title,n,ok,meta/city,meta/deep/x,tags');
    const file = `${JSON.stringify({ id: 'g1', data: awkward.a1 })}\n`;
    const readOnly = await fetch(`${B('head')}/docs/import`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-ndjson' },
      body: file,
    });
    assert.equal(readOnly.status, 405);
    assert.equal(((await readOnly.json()) as { code: string }).code, 'READ_ONLY_ENDPOINT');
    const draft = await fetch(`${B('draft')}/docs/import?mode=upsert`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-ndjson' },
      body: file,
    });
    assert.equal(draft.status, 200);
    assert.equal(((await draft.json()) as { created: number }).created, 1);
    const exported = await fetch(`${B('draft')}/docs/export`, { headers: auth });
    assert.ok((await exported.text()).includes('"id":"g1"'));
  });

  test('a key scoped to some tables exports and imports only those', async () => {
    const created = await admin.rest('POST', '/api-keys/personal', { name: 'docs only', tableIds: ['docs'] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const key = { 'X-Api-Key': created.body.secret as string };
    const draft = (await admin.rest('GET', '/organization/acme/project/blog/branch/master')).body.draftRevisionId as string;
    const allowed = await fetch(`${system.url}/api${T(draft, 'docs')}/export`, { headers: key });
    assert.equal(allowed.status, 200);
    const refused = await fetch(`${system.url}/api${T(draft, 'authors')}/export`, { headers: key });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { code: string }).code, 'API_KEY_SCOPE');
    const importRefused = await fetch(`${system.url}/api${T(draft, 'authors')}/import`, {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'text/csv' },
      body: 'id\r\n',
    });
    assert.equal(importRefused.status, 403);
  });
});
