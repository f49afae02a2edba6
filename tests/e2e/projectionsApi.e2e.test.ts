import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD, assertGqlError, assertRestError, gqlData, startSystem, type Client, type System } from './support/systemHarness.ts';
import { authorsSchema, createUser, organizationWithProject } from './support/systemFixtures.ts';

// The operator API of operations.md §5.1: projection status rows and rebuilds through REST and GraphQL, for
// systemAdmin only; the rebuild is the CLI's (projection-worker rebuildProjection) and excludes concurrent ones.
let system: System;
let admin: Client;
let draft = '';
const NAMES = ['api-keys', 'catalog', 'directory', 'rows', 'schemas', 'sessions'];

type Status = { name: string; version: number; status: string; lag: number; rebuild: unknown };

async function statuses(): Promise<Status[]> {
  const reply = await admin.rest('GET', '/projections');
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

before(async () => {
  system = await startSystem();
  admin = system.as(await system.login('admin', ADMIN_PASSWORD));
  draft = (await organizationWithProject(admin, 'acme', 'blog')).draftRevisionId;
  assert.equal((await admin.rest('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema })).status, 201);
  const rows = Array.from({ length: 300 }, (_, i) => ({ rowId: `a${i}`, data: { name: `N${i}`, address: { city: 'X', zip: i }, tags: [] } }));
  assert.equal((await admin.rest('POST', `/revision/${draft}/tables/authors`.replace('/tables/', '/table/') + '/rows/bulk', { rows })).status, 201);
});
after(() => system.close());

describe('projection operations API (operations.md §5.1)', () => {
  test('status rows of every projection over REST and GraphQL', async () => {
    const rows = await statuses();
    assert.deepEqual(
      rows.map((r) => r.name),
      NAMES,
    );
    for (const row of rows) {
      assert.deepEqual(Object.keys(row).sort(), ['error', 'head', 'lag', 'name', 'position', 'rebuild', 'status', 'updatedAt', 'version']);
      assert.ok(['running', 'idle', 'stalled', 'failed', 'building'].includes(row.status));
      assert.equal(row.rebuild, null);
    }
    const gql = gqlData(await admin.gql('{ projections { name version status position head lag updatedAt error rebuild { targetVersion } } }'));
    assert.deepEqual(
      gql.projections.map((p: Status) => p.name),
      NAMES,
    );
  });

  test('systemAdmin only: 403 for other users, 401 for anonymous callers', async () => {
    await createUser(admin, 'olga', 'olga-password');
    const olga = system.as(await system.login('olga', 'olga-password'));
    assertRestError(await olga.rest('GET', '/projections'), 403, 'FORBIDDEN');
    assertRestError(await olga.rest('POST', '/projections/rows/rebuild'), 403, 'FORBIDDEN');
    assertGqlError(await olga.gql('{ projections { name } }'), 'FORBIDDEN', 403);
    assertGqlError(await olga.gql('mutation { rebuildProjection(name: "rows") { names } }'), 'FORBIDDEN', 403);
    assertRestError(await system.as(null).rest('GET', '/projections'), 401, 'UNAUTHENTICATED');
    assertRestError(await system.as(null).rest('POST', '/projections/all/rebuild'), 401, 'UNAUTHENTICATED');
  });

  test('unknown name: 404 PROJECTION_NOT_FOUND', async () => {
    const reply = await admin.rest('POST', '/projections/rowz/rebuild');
    assertRestError(reply, 404, 'PROJECTION_NOT_FOUND');
    assert.equal(reply.body.message, 'Projection "rowz" not found');
    assertGqlError(await admin.gql('mutation { rebuildProjection(name: "rowz") { names } }'), 'PROJECTION_NOT_FOUND', 404);
  });

  test('a rebuild running elsewhere (the CLI holds its lease): 409 REBUILD_IN_PROGRESS, also for all', async () => {
    assert.equal(await system.holdRebuildLease('rows', 'cli-elsewhere'), true);
    try {
      assertRestError(await admin.rest('POST', '/projections/rows/rebuild'), 409, 'REBUILD_IN_PROGRESS');
      assertRestError(await admin.rest('POST', '/projections/all/rebuild'), 409, 'REBUILD_IN_PROGRESS');
      assertGqlError(await admin.gql('mutation { rebuildProjection(name: "rows") { names } }'), 'REBUILD_IN_PROGRESS', 409);
      // The refused `all` took back the leases it had taken before meeting `rows`.
      assert.equal(await system.holdRebuildLease('catalog', 'cli-elsewhere'), true);
      await system.releaseRebuildLease('catalog', 'cli-elsewhere');
    } finally {
      await system.releaseRebuildLease('rows', 'cli-elsewhere');
    }
  });

  test('a rebuild of rows answers 202 at once, runs to the switch while reads keep working, and refuses a second one', async () => {
    const before = (await statuses()).find((r) => r.name === 'rows');
    assert.ok(before);
    const started = await admin.rest('POST', '/projections/rows/rebuild');
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.deepEqual(started.body, { names: ['rows'] });
    await until(async () => {
      const rows = (await statuses()).find((r) => r.name === 'rows');
      const read = await admin.rest('GET', `/revision/${draft}/table/authors/rows?first=5`);
      assert.equal(read.status, 200);
      assert.equal(read.body.totalCount, 300);
      return rows !== undefined && rows.version === before.version + 1 && rows.rebuild === null;
    }, 'the switch');
    await system.rebuildsIdle();
    const again = await admin.gql('mutation { rebuildProjection(name: "all") { names } }');
    assert.deepEqual([...gqlData(again).rebuildProjection.names].sort(), NAMES);
    // `all` rebuilds one after another and holds every lease from the start: the last one is still queued.
    const queued = (await statuses()).find((r) => r.name === 'sessions');
    assert.equal((queued?.rebuild as { targetVersion: number } | null)?.targetVersion, (queued?.version ?? 0) + 1);
    assertRestError(await admin.rest('POST', '/projections/sessions/rebuild'), 409, 'REBUILD_IN_PROGRESS');
    await system.rebuildsIdle();
    const after = await statuses();
    assert.ok(after.every((r) => r.rebuild === null));
    assert.equal(after.find((r) => r.name === 'rows')?.version, before.version + 2);
  });
});
