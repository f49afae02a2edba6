import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess, type StrataProcess } from '../support/strataProcess.ts';
import { openSse, type SseStream } from './support/sseClient.ts';

// The change feed (changes.md §5) against a real `strata serve`: replay after Last-Event-ID / ?after= then live,
// filters, key scopes, the per-principal limit, the end on credential revocation and on shutdown.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const PASSWORD = 'feed-e2e-admin-password';
let dir = '';
let strata: StrataProcess;
let token = '';
const FEED = '/organization/acme/project/blog/events';
const schema = { type: 'object', properties: { title: { type: 'string', default: '' } }, additionalProperties: false, required: ['title'] };

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const res = await fetch(`${strata.url}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  assert.equal(res.status, status, `${method} ${path}: ${text}`);
  return text === '' ? null : JSON.parse(text);
}

const draft = async (): Promise<string> => (await ok('GET', '/organization/acme/project/blog/branch/master')).draftRevisionId;
const feed = (query = '', headers: Record<string, string> = { authorization: `Bearer ${token}` }): Promise<SseStream & { body: unknown }> =>
  openSse(`${strata.url}/api${FEED}${query}`, headers);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-feed-'));
  strata = await startStrataProcess({ DATA_DIR: dir, ADMIN_PASSWORD: PASSWORD, JWT_SECRET: 'feed-e2e-secret-that-is-at-least-32-bytes-long' });
  token = (await ok('POST', '/auth/login', { username: 'admin', password: PASSWORD })).accessToken;
  await ok('POST', '/organizations', { organizationId: 'acme' }, 201);
  await ok('POST', '/organization/acme/projects', { projectName: 'blog' }, 201);
  const d = await draft();
  await ok('POST', `/revision/${d}/tables`, { tableId: 'posts', schema }, 201);
  await ok('POST', `/revision/${d}/tables`, { tableId: 'secret', schema }, 201);
});
after(async () => {
  await strata?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('change feed (changes.md §5)', () => {
  test('live events, then Last-Event-ID and ?after= replay exactly the events after it, then continue live', async () => {
    const live = await feed();
    assert.equal(live.status, 200);
    const d = await draft();
    await ok('POST', `/revision/${d}/table/posts/rows`, { rowId: 'a', data: { title: 'A' } }, 201);
    await ok('POST', `/revision/${d}/table/posts/rows`, { rowId: 'b', data: { title: 'B' } }, 201);
    await ok('DELETE', `/revision/${d}/table/posts/row/a`);
    const commit = await ok('POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'c1' }, 201);
    const seen = await live.waitFor(4);
    assert.deepEqual(
      seen.map((e) => e.event),
      ['rows.changed', 'rows.changed', 'rows.changed', 'revision.committed'],
    );
    assert.deepEqual(
      seen.map((e) => e.id),
      seen.map((e) => e.data.position),
    );
    assert.equal(seen[3]?.data.data.revisionId, commit.id);
    assert.deepEqual(
      seen[3]?.data.data.changes.tables.map((t: Json) => t.tableId),
      ['posts', 'secret'],
    );

    const resumed = await feed('', { authorization: `Bearer ${token}`, 'last-event-id': String(seen[1]?.id) });
    const replayed = await resumed.waitFor(2);
    assert.deepEqual(
      replayed.map((e) => e.id),
      seen.slice(2).map((e) => e.id),
    );
    const viaQuery = await feed(`?after=${encodeURIComponent(String(seen[2]?.id))}&types=revision.committed`);
    assert.deepEqual(
      (await viaQuery.waitFor(1)).map((e) => e.id),
      [seen[3]?.id],
    );
    await ok('POST', `/revision/${await draft()}/table/posts/rows`, { rowId: 'c', data: { title: 'C' } }, 201);
    assert.equal((await resumed.waitFor(3))[2]?.data.data.rowIds[0], 'c');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(resumed.events.length, 3, 'nothing but the events after Last-Event-ID');
    assert.equal(viaQuery.events.length, 1, 'the types filter leaves out rows.changed');
    for (const stream of [live, resumed, viaQuery]) stream.close();
    const bad = await feed('?after=nope');
    assert.equal(bad.status, 400);
    assert.equal((await feed('?types=nope')).status, 400);
  });

  test('a key scoped to one table sees only its events; the stream ends when the key is revoked', async () => {
    const key = await ok('POST', '/api-keys/personal', { name: 'feed', tableIds: ['posts'] }, 201);
    const scoped = await feed('', { 'x-api-key': key.secret });
    assert.equal(scoped.status, 200);
    const d = await draft();
    await ok('POST', `/revision/${d}/table/secret/rows`, { rowId: 's', data: { title: 'S' } }, 201);
    await ok('POST', `/revision/${d}/table/posts/rows`, { rowId: 'p', data: { title: 'P' } }, 201);
    await ok('POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'c2' }, 201);
    const events = await scoped.waitFor(2);
    assert.deepEqual(
      events.map((e) => [e.event, e.data.data.tableId ?? null]),
      [
        ['rows.changed', 'posts'],
        ['revision.committed', null],
      ],
    );
    assert.deepEqual(
      events[1]?.data.data.changes.tables.map((t: Json) => t.tableId),
      ['posts'],
    );
    assert.equal(events[1]?.data.data.changes.totalRowChanges, 2, 'rows c (earlier draft) and p of posts');

    await ok('POST', `/api-key/${key.apiKey.id}/revoke`);
    await Promise.race([scoped.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('stream did not end')), 10_000))]);
    const last = scoped.events.at(-1);
    assert.equal(last?.event, 'error');
    assert.equal(last?.data.code, 'API_KEY_REVOKED');
  });

  test('a merge appears as branch.merged (merge.md §5) after its row events', async () => {
    await ok('POST', `/revision/${await draft()}/table/posts/rows`, { rowId: 'before-merge', data: { title: 'x' } }, 201);
    const head = (await ok('POST', '/organization/acme/project/blog/branch/master/revisions', { comment: 'before the merge' }, 201)).id;
    await ok('POST', `/revision/${head}/branches`, { branchName: 'feature' }, 201);
    const featureDraft = (await ok('GET', '/organization/acme/project/blog/branch/feature')).draftRevisionId;
    await ok('POST', `/revision/${featureDraft}/table/posts/rows`, { rowId: 'merged', data: { title: 'From feature' } }, 201);
    const source = (await ok('POST', '/organization/acme/project/blog/branch/feature/revisions', { comment: 'f' }, 201)).id;
    const live = await feed('?types=branch.merged,rows.changed&branch=master');
    const merge = await ok('POST', '/organization/acme/project/blog/branch/master/merge', { sourceRevisionId: source });
    const [rows, merged] = await live.waitFor(2);
    live.close();
    assert.deepEqual([rows?.event, rows?.data.data.rowIds], ['rows.changed', ['merged']]);
    assert.ok(merged !== undefined);
    assert.equal(merged.event, 'branch.merged');
    const { actorId, ...data } = merged.data.data;
    assert.deepEqual(data, {
      organizationId: 'acme',
      projectName: 'blog',
      branchName: 'master',
      draftRevisionId: merge.branch.draftRevisionId,
      sourceRevisionId: source,
      baseRevisionId: head,
      totalRowChanges: 1,
    });
    assert.equal(typeof actorId, 'string');
  });

  test('the 11th open stream of a principal gets 429; anonymous and unknown projects are refused', async () => {
    const streams = await Promise.all(Array.from({ length: 10 }, () => feed()));
    assert.ok(streams.every((s) => s.status === 200));
    const eleventh = await feed();
    assert.equal(eleventh.status, 429);
    assert.equal((eleventh.body as Json).code, 'RATE_LIMITED');
    for (const stream of streams) stream.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await feed();
    assert.equal(again.status, 200);
    again.close();
    assert.equal((await feed('', {})).status, 401);
    const missing = await openSse(`${strata.url}/api/organization/acme/project/nope/events`, { authorization: `Bearer ${token}` });
    assert.equal(missing.status, 404);
  });

  test('open streams end cleanly when the server shuts down', async () => {
    const stream = await feed();
    assert.equal(stream.status, 200);
    const started = Date.now();
    const code = await strata.stop();
    await stream.ended;
    assert.equal(code, 0);
    assert.ok(Date.now() - started < 8000, 'shutdown did not wait for the stream');
  });
});
