import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { alice, bob, carol, postsSchema } from './support/systemFixtures.ts';
import { mergeSuite, ok } from './support/mergeKit.ts';

// The checks on the result (merge.md §2.3) through system REST: what their conflicts name (§2.4) and that a preview
// lists all of them in one round. Theirs = branch feature, ours = master's draft.
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
const suite = mergeSuite();

const post = (path: string, body: unknown) => ok(suite.admin.rest('POST', path, body), 201);
const authorsOf = (draft: string) => `/revision/${draft}/table/authors`;
const summary = (preview: Json) => preview.conflicts.map((k: Json) => [k.kind, k.tableId, k.rowId]);
/** Ours allows at most 5 characters in an author's name. */
const shortNames = (draft: string) =>
  ok(suite.admin.rest('PATCH', authorsOf(draft), { patches: [{ op: 'add', path: '/properties/name/maxLength', value: 5 }] }));
const post1 = (author: string) => ({ title: `By ${author}`, views: 0, author, lines: [], self: '' });

describe('result checks name our rows (merge.md §2.3, §2.4)', () => {
  test('theirs renamed a row (and its table) into invalid data: INVALID_DATA names our ids, VALUE lands on theirs', async () => {
    const p = await suite.kit.freshProject();
    const c = suite.kit.ctx(p);
    await c.branch(p.c1, 'feature');
    const f = await c.draft('feature');
    await ok(suite.admin.rest('PUT', `${authorsOf(f)}/row/bob`, { data: { ...bob, name: 'Roberto the Long' } }));
    await ok(suite.admin.rest('POST', `${authorsOf(f)}/row/bob/rename`, { nextRowId: 'robert' }));
    await ok(suite.admin.rest('POST', `${authorsOf(f)}/rename`, { nextTableId: 'writers' }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await shortNames(m);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [['INVALID_DATA', 'authors', 'bob']]);
    const again = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.equal(again.conflicts[0].id, preview.conflicts[0].id, 'the id is stable');
    const resolutions = [{ conflictId: preview.conflicts[0].id, take: 'VALUE', value: { ...bob, name: 'Rob' } }];
    assert.equal((await ok(c.merge('master', { sourceRevisionId: f1, resolutions }))).status, 'CLEAN');
    assert.deepEqual(await c.rows(m, 'writers'), { alice, robert: { ...bob, name: 'Rob' }, carol });
  });

  test('a row of ours that theirs renamed and that references a row the merge removes: FOREIGN_KEY names our id', async () => {
    const p = await suite.kit.freshProject();
    const c = suite.kit.ctx(p);
    const m0 = await c.draft();
    await post(`/revision/${m0}/tables`, { tableId: 'posts', schema: postsSchema });
    await post(`${c.T(m0, 'posts')}/rows`, { rowId: 'p1', data: post1('carol') });
    await c.branch(await c.commit('master'), 'feature');
    const f = await c.draft('feature');
    await ok(suite.admin.rest('DELETE', `${authorsOf(f)}/row/bob`));
    await ok(suite.admin.rest('POST', `${c.T(f, 'posts')}/row/p1/rename`, { nextRowId: 'first' }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await ok(suite.admin.rest('PUT', `${c.T(m, 'posts')}/row/p1`, { data: post1('bob') }));
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [['FOREIGN_KEY', 'posts', 'p1']]);
    await ok(c.merge('master', { sourceRevisionId: f1, resolutions: [{ conflictId: preview.conflicts[0].id, take: 'REMOVE' }] }));
    assert.deepEqual(await c.rows(m, 'posts'), {});
    assert.deepEqual(await c.rows(m), { alice, carol });
  });
});

describe('a preview lists every result-check conflict at once (merge.md §3)', () => {
  test('FOREIGN_KEY of a row the merge removes and INVALID_DATA of another row, in one preview', async () => {
    const p = await suite.kit.freshProject();
    const c = suite.kit.ctx(p);
    const m0 = await c.draft();
    await post(`/revision/${m0}/tables`, { tableId: 'posts', schema: postsSchema });
    await c.branch(await c.commit('master'), 'feature');
    const f = await c.draft('feature');
    await ok(suite.admin.rest('DELETE', `${authorsOf(f)}/row/bob`));
    await ok(suite.admin.rest('PUT', `${authorsOf(f)}/row/carol`, { data: { ...carol, name: 'Caroline' } }));
    const f1 = await c.commit('feature');
    const m = await c.draft();
    await post(`${c.T(m, 'posts')}/rows`, { rowId: 'p1', data: post1('bob') });
    await shortNames(m);
    const preview = await ok(c.merge('master', { sourceRevisionId: f1 }, true));
    assert.deepEqual(summary(preview), [
      ['INVALID_DATA', 'authors', 'carol'],
      ['FOREIGN_KEY', 'posts', 'p1'],
    ]);
    assert.equal(preview.conflictCount, 2);
    const [invalid, foreignKey] = preview.conflicts;
    const resolutions = [
      { conflictId: invalid.id, take: 'VALUE', value: { ...carol, name: 'Caro' } },
      { conflictId: foreignKey.id, take: 'REMOVE' },
    ];
    const resolved = await ok(c.merge('master', { sourceRevisionId: f1, resolutions }, true));
    assert.deepEqual([resolved.status, resolved.conflictCount], ['CLEAN', 0]);
    await ok(c.merge('master', { sourceRevisionId: f1, resolutions }));
    assert.deepEqual(await c.rows(m), { alice, carol: { ...carol, name: 'Caro' } });
    assert.deepEqual(await c.rows(m, 'posts'), {});
  });
});
