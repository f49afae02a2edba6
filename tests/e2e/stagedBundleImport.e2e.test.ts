// Bundles above one command (portability.md §3 with the limits of §2, versioned-storage.md §6) through HTTP, with
// the limits lowered: one system stages every bundle above 10 rows in chunks of 4 (and holds at most 40 rows per
// import), the other takes the same bundles in one command. Both answer alike (dry run and real run), export the
// same draft afterwards, and equal the bundle; rows reference rows created in earlier chunks; an invalid last row,
// a missing foreign-key target and a unique value repeated 20 rows later refuse the whole bundle and write nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, startSystem, type System } from './support/systemHarness.ts';
import { organizationWithProject, uploadImport } from './support/systemFixtures.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

const authorsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email'],
  properties: { name: { type: 'string', default: '' }, email: { type: 'string', default: '', 'x-unique': true } },
};
const postsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'author', 'reviewers'],
  properties: {
    title: { type: 'string', default: '' },
    author: { type: 'string', default: '', foreignKey: 'authors' },
    reviewers: { type: 'array', items: { type: 'string', default: '', foreignKey: 'authors' } },
  },
};
const legacySchema = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };

const pad = (i: number): string => String(i).padStart(2, '0');
const author = (i: number, email = `a${pad(i)}@example.com`) => ({ table: 'authors', id: `a${pad(i)}`, data: { name: `Author ${i}`, email } });
// Post i names authors of the first chunks (a00..a11), so its rows' targets were staged chunks before.
const post = (i: number, to = `a${pad(i % 12)}`) => ({
  table: 'posts',
  id: `p${pad(i)}`,
  data: { title: `Post ${i}`, author: to, reviewers: [`a${pad((i + 5) % 12)}`] },
});

function bundleOf(
  rows: readonly unknown[],
  tables = [
    { id: 'authors', schema: authorsSchema },
    { id: 'posts', schema: postsSchema },
  ],
): string {
  const header = { format: 'strata-bundle', version: 1, sourceRevisionId: 'source', exportedAt: '2026-01-01T00:00:00.000Z', tables };
  return [header, ...rows].map((line) => JSON.stringify(line)).join('\n');
}

/** 12 authors and 15 posts: 27 rows, staged in 7 chunks on the lowered system. */
const BIG = [...Array.from({ length: 12 }, (_, i) => author(i)), ...Array.from({ length: 15 }, (_, i) => post(i))];

/** A bundle's lines without what names its source (revision id, export time). */
function contentOf(bundle: string): unknown[] {
  const [header, ...rows] = bundle
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const { sourceRevisionId: _source, exportedAt: _at, ...rest } = header;
  return [rest, ...rows];
}

/** One system and the admin's calls on a project's draft. */
async function sideOf(system: System) {
  const token = await system.login('admin', ADMIN_PASSWORD);
  const admin = system.as(token);
  await organizationWithProject(admin, 'acme', 'start');
  const get = async (path: string): Promise<Json> => {
    const res = await fetch(`${system.url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, path);
    return path.endsWith('/bundle') ? res.text() : res.json();
  };
  return {
    system,
    /** A project whose draft holds authors a00 (another name) and `gone`, and a `legacy` table of two rows. */
    async project(name: string): Promise<string> {
      const created = await admin.rest('POST', '/organization/acme/projects', { projectName: name });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const draft: string = (await get(`/organization/acme/project/${name}/branch/master`)).draftRevisionId;
      for (const [tableId, schema] of [
        ['authors', authorsSchema],
        ['legacy', legacySchema],
      ] as const) {
        assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId, schema })).status, 201);
      }
      const authors = [
        { id: 'a00', data: { name: 'Old', email: 'old@example.com' } },
        { id: 'gone', data: { name: 'Gone', email: 'gone@example.com' } },
      ];
      const legacy = [
        { id: 'l1', data: { n: 1 } },
        { id: 'l2', data: { n: 2 } },
      ];
      for (const [table, rows] of [
        ['authors', authors],
        ['legacy', legacy],
      ] as const) {
        const reply = await uploadImport(system.url, token, draft, table, rows.map((row) => JSON.stringify(row)).join('\n'));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
      }
      return draft;
    },
    async importBundle(project: string, body: string, query = ''): Promise<{ status: number; body: Json }> {
      const res = await fetch(`${system.url}/api/organization/acme/project/${project}/branch/master/bundle${query}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
        body,
      });
      return { status: res.status, body: await res.json() };
    },
    exportDraft: async (draft: string): Promise<string> => get(`/revision/${draft}/bundle`),
    /** The facts the staged events carry, as the readers show them: tables' counts, the draft's changes. */
    async facts(draft: string): Promise<Json> {
      const counts = await Promise.all(['authors', 'posts'].map(async (table) => (await get(`/revision/${draft}/table/${table}`)).count));
      return { counts, changes: (await get(`/revision/${draft}/changes`)).tables, hasChanges: (await get(`/revision/${draft}`)).hasChanges };
    },
    /** What a refused import must leave as it was. */
    async snapshot(draft: string): Promise<Json> {
      const tables = await Promise.all(
        ['authors', 'legacy'].map(async (table) => (await get(`/revision/${draft}/table/${table}/rows?first=50`)).edges.map((e: Json) => e.node)),
      );
      return { tables, changes: (await get(`/revision/${draft}/changes`)).tables, bundle: contentOf(await get(`/revision/${draft}/bundle`)) };
    },
  };
}

type Side = Awaited<ReturnType<typeof sideOf>>;

/** The answer without the draft's id (each system has its own). */
const answerOf = ({ revisionId: _id, ...rest }: Json): Json => rest;

describe('bundles above one command, staged (portability.md §3)', () => {
  let staged: Side;
  let single: Side;

  before(async () => {
    staged = await sideOf(await startSystem({ stagedImport: { aboveRows: 10, chunkRows: 4, maxRows: 40 } }));
    single = await sideOf(await startSystem({}));
  });
  after(async () => {
    await staged?.system.close();
    await single?.system.close();
  });

  /** The same bundle into a fresh project of each system: both answers (staged first). */
  async function both(project: string, body: string, query: string): Promise<{ drafts: string[]; replies: { status: number; body: Json }[] }> {
    const drafts = [await staged.project(project), await single.project(project)];
    const replies = [await staged.importBundle(project, body, query), await single.importBundle(project, body, query)];
    return { drafts, replies };
  }

  test('replace: a dry run answers what the import then does; the draft becomes the bundle, as in one command', async () => {
    const body = bundleOf(BIG);
    const { drafts, replies } = await both('replace', body, '?mode=replace&dryRun=true');
    const [dry, dryOne] = replies.map((reply) => reply.body);
    assert.equal(replies[0]?.status, 200, JSON.stringify(dry));
    assert.deepEqual(answerOf(dry), answerOf(dryOne));
    assert.deepEqual([dry.processed, dry.created, dry.updated, dry.unchanged, dry.removed, dry.invalid], [27, 26, 1, 0, 3, 0]);
    const [stagedDraft = '', singleDraft = ''] = drafts;
    // The dry run wrote nothing: the draft still has the table and the row the bundle lacks.
    const untouched = contentOf(await staged.exportDraft(stagedDraft));
    assert.ok(JSON.stringify(untouched).includes('"legacy"') && JSON.stringify(untouched).includes('"gone"'));

    const head = await staged.system.headPosition();
    const real = await staged.importBundle('replace', body, '?mode=replace');
    assert.equal(real.status, 200, JSON.stringify(real.body));
    assert.deepEqual(answerOf(real.body), { ...answerOf(dry), dryRun: false });
    assert.notEqual(await staged.system.headPosition(), head);
    assert.deepEqual(await staged.system.stagings(), [], 'the commit leaves no staging');
    assert.equal((await single.importBundle('replace', body, '?mode=replace')).status, 200);

    const facts = await staged.facts(stagedDraft);
    assert.deepEqual(facts, await single.facts(singleDraft));
    assert.deepEqual(facts.counts, [12, 15]);
    const exported = contentOf(await staged.exportDraft(stagedDraft));
    assert.deepEqual(exported, contentOf(await single.exportDraft(singleDraft)));
    assert.deepEqual(exported.slice(1), contentOf(body).slice(1), 'the draft holds exactly the bundle');
    // Imported again: nothing changes, nothing is appended.
    const again = await staged.system.headPosition();
    const repeat = await staged.importBundle('replace', body, '?mode=replace');
    assert.deepEqual([repeat.body.unchanged, repeat.body.created, repeat.body.updated, repeat.body.removed], [27, 0, 0, 0]);
    assert.equal(await staged.system.headPosition(), again);
  });

  test('merge: a schema changed, rows upserted next to the draft, targets in the draft or earlier chunks; nothing removed', async () => {
    // Authors gain `bio` (the draft's rows migrate in every chunk's decision, staged once); post 14 names `gone`,
    // which only the draft has.
    const withBio = {
      ...authorsSchema,
      required: [...authorsSchema.required, 'bio'],
      properties: { ...authorsSchema.properties, bio: { type: 'string', default: '-' } },
    };
    const authors = BIG.slice(0, 12).map((row: Json) => ({ ...row, data: { ...row.data, bio: `bio of ${row.id}` } }));
    const tables = [
      { id: 'authors', schema: withBio },
      { id: 'posts', schema: postsSchema },
    ];
    const body = bundleOf([...authors, ...BIG.slice(12, 26), post(14, 'gone')], tables);
    const { drafts, replies } = await both('merge', body, '?mode=merge');
    assert.equal(replies[0]?.status, 200, JSON.stringify(replies[0]?.body));
    assert.deepEqual(answerOf(replies[0]?.body), answerOf(replies[1]?.body));
    assert.equal(replies[0]?.body.removed, 0);
    assert.deepEqual(
      replies[0]?.body.tables.map((table: Json) => [table.tableId, table.change, table.schemaChanged]),
      [
        ['authors', 'MODIFIED', true],
        ['posts', 'ADDED', true],
      ],
    );
    assert.deepEqual(await staged.facts(drafts[0] ?? ''), await single.facts(drafts[1] ?? ''));
    assert.deepEqual(contentOf(await staged.exportDraft(drafts[0] ?? '')), contentOf(await single.exportDraft(drafts[1] ?? '')));
    assert.deepEqual(await staged.system.stagings(), []);
  });

  // One command's skipping dry run also lists the rows naming a row it left out; staged, a reference to a row of the
  // bundle is kept. Either way the bundle is refused, and the first invalid row is listed.
  const refusals = [
    {
      name: 'an invalid last row',
      rows: [...BIG, { table: 'posts', id: 'p99', data: { title: 7, author: 'a00', reviewers: [] } }],
      query: '?mode=replace',
      line: 29,
    },
    { name: 'a foreign key naming a row replace removes', rows: [...BIG.slice(0, 26), post(14, 'gone')], query: '?mode=replace', line: 28 },
    { name: 'a foreign key naming no row at all', rows: [...BIG, post(20, 'nobody')], query: '?mode=merge', line: 29 },
    {
      name: 'a line that is not a row, and a bad row',
      rows: [...BIG.slice(0, 20), 'a string', ...BIG.slice(20), post(21, '')],
      query: '?mode=replace',
      line: 22,
    },
    {
      name: 'a unique value repeated 20 rows later',
      rows: [...BIG.slice(0, 11), author(11, 'a00@example.com'), ...BIG.slice(12)],
      query: '?mode=merge',
      line: 13,
    },
  ];
  for (const [index, { name, rows, query, line }] of refusals.entries()) {
    test(`${name} refuses the whole bundle and writes nothing`, async () => {
      const project = `refused${index}`;
      const drafts = [await staged.project(project), await single.project(project)];
      const before = await staged.snapshot(drafts[0] ?? '');
      const head = await staged.system.headPosition();
      const body = bundleOf(rows);
      for (const dryRun of ['', '&dryRun=true']) {
        const reply = await staged.importBundle(project, body, `${query}${dryRun}`);
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        assert.equal(reply.body.code, 'IMPORT_INVALID');
        const one = (await single.importBundle(project, body, `${query}${dryRun}`)).body;
        assert.deepEqual(reply.body.details[0], {
          path: `/line/${line}`,
          message: one.details.find((d: Json) => d.path === `/line/${line}`)?.message,
        });
        if (index < 4) assert.deepEqual(reply.body, one);
      }
      assert.equal(await staged.system.headPosition(), head, 'nothing was appended');
      assert.deepEqual(await staged.snapshot(drafts[0] ?? ''), before);
      assert.deepEqual(await staged.system.stagings(), []);
    });
  }

  test('a bundle past the rows one import may hold is 400 IMPORT_INVALID at the first row too many', async () => {
    const rows = [...Array.from({ length: 30 }, (_, i) => author(i)), ...Array.from({ length: 11 }, (_, i) => post(i))];
    const draft = await staged.project('capped');
    const head = await staged.system.headPosition();
    const reply = await staged.importBundle('capped', bundleOf(rows), '?mode=merge');
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.details, [{ path: '/line/42', message: 'IMPORT_INVALID: an import holds at most 40 rows; split the bundle' }]);
    assert.equal(await staged.system.headPosition(), head);
    assert.ok(draft);
    assert.deepEqual(await staged.system.stagings(), []);
  });
});
