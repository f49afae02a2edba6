import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError, type ErrorCode } from '../../../contracts/index.ts';
import { applyRowPatches, parseDotPath } from './applyRowPatches.ts';

const data = {
  name: 'Widget',
  specs: { weight: 1.5, 'a/b': 1, 'c~d': 2 },
  items: [
    { name: 'first', tags: ['x', 'y'] },
    { name: 'second', tags: [] },
  ],
};

function fails(patches: unknown, code: ErrorCode, detail?: { index: number; path: string; message?: string }): void {
  assert.throws(
    () => applyRowPatches(data, patches),
    (err: unknown) => {
      assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
      if (detail !== undefined) {
        assert.equal(err.details?.[0]?.index, detail.index);
        assert.equal(err.details?.[0]?.path, detail.path);
        if (detail.message !== undefined) {
          assert.equal(err.message, detail.message);
          assert.equal(err.details?.[0]?.message, detail.message);
        }
      }
      return true;
    },
  );
}

describe('parseDotPath', () => {
  test('dot and bracket notation', () => {
    assert.deepEqual(parseDotPath('specs.weight'), ['specs', 'weight']);
    assert.deepEqual(parseDotPath('items[0].name'), ['items', 0, 'name']);
    assert.deepEqual(parseDotPath('items[1].tags[10]'), ['items', 1, 'tags', 10]);
    assert.deepEqual(parseDotPath('m[0][1]'), ['m', 0, 1]);
    assert.deepEqual(parseDotPath('name'), ['name']);
  });
  test('malformed paths', () => {
    for (const bad of ['', '.a', 'a.', 'a..b', '[0]', 'a[x]', 'a[01]', 'a[0]b', 'a[', 'a]', 'a[-1]']) {
      assert.equal(parseDotPath(bad), null, bad);
    }
  });
});

describe('applyRowPatches', () => {
  test('JSON Pointer and dot/bracket paths', () => {
    const out = applyRowPatches(data, [
      { op: 'replace', path: '/specs/weight', value: 2 },
      { op: 'replace', path: 'items[0].name', value: 'one' },
      { op: 'replace', path: 'items.1.name', value: 'two' },
      { op: 'replace', path: '/items/0/tags/1', value: 'z' },
      { op: 'replace', path: '/specs/a~1b', value: 10 },
      { op: 'replace', path: '/specs/c~0d', value: 20 },
      { op: 'replace', path: 'name', value: { any: ['json'] } },
    ]);
    assert.deepEqual(out, {
      name: { any: ['json'] },
      specs: { weight: 2, 'a/b': 10, 'c~d': 20 },
      items: [
        { name: 'one', tags: ['x', 'z'] },
        { name: 'two', tags: [] },
      ],
    });
  });

  test('operations apply in order and whole values may be replaced', () => {
    const out = applyRowPatches(data, [
      { op: 'replace', path: 'specs', value: { weight: 9 } },
      { op: 'replace', path: 'specs.weight', value: 10 },
      { op: 'replace', path: 'items', value: [] },
    ]);
    assert.deepEqual(out, { name: 'Widget', specs: { weight: 10 }, items: [] });
  });

  test('input data and values are not changed or shared', () => {
    const copy = structuredClone(data);
    const value = { nested: [1] };
    const out = applyRowPatches(data, [{ op: 'replace', path: 'specs', value }]) as { specs: unknown; items: unknown };
    assert.deepEqual(data, copy);
    assert.notEqual(out.specs, value);
    assert.notEqual(out.items, data.items);
  });

  test('missing paths are INVALID_PATCH with the index', () => {
    fails([{ op: 'replace', path: 'specs.height', value: 1 }], 'INVALID_PATCH', {
      index: 0,
      path: 'specs.height',
      message: 'Path not found: specs.height',
    });
    fails(
      [
        { op: 'replace', path: 'name', value: 'ok' },
        { op: 'replace', path: '/specs/height', value: 1 },
      ],
      'INVALID_PATCH',
      {
        index: 1,
        path: '/specs/height',
        message: 'Path not found: /specs/height',
      },
    );
    fails([{ op: 'replace', path: 'items[2].name', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'items[2].name' });
    fails([{ op: 'replace', path: '/items/-', value: 1 }], 'INVALID_PATCH', { index: 0, path: '/items/-' });
    fails([{ op: 'replace', path: '/items/01', value: 1 }], 'INVALID_PATCH', { index: 0, path: '/items/01' });
    fails([{ op: 'replace', path: 'name.first', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'name.first' });
    fails([{ op: 'replace', path: 'items.name', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'items.name' });
    fails([{ op: 'replace', path: 'specs[0]', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'specs[0]' });
    fails([{ op: 'replace', path: 'toString', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'toString' });
  });

  test('malformed paths and operations are INVALID_PATCH', () => {
    fails([{ op: 'replace', path: '', value: 1 }], 'INVALID_PATCH', { index: 0, path: '' });
    fails([{ op: 'replace', path: 'a..b', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'a..b' });
    fails([{ op: 'replace', path: '/a~2', value: 1 }], 'INVALID_PATCH', { index: 0, path: '/a~2' });
    fails([{ op: 'add', path: 'name', value: 1 }], 'INVALID_PATCH', { index: 0, path: 'name' });
    fails([{ op: 'remove', path: 'name' }], 'INVALID_PATCH', { index: 0, path: 'name' });
    fails([{ op: 'test', path: 'name', value: 'Widget' }], 'INVALID_PATCH', { index: 0, path: 'name' });
    fails([{ op: 'replace', path: 'name' }], 'INVALID_PATCH', { index: 0, path: 'name' });
    fails([{ op: 'replace', path: 3, value: 1 }], 'INVALID_PATCH', { index: 0, path: '' });
    fails([null], 'INVALID_PATCH', { index: 0, path: '' });
  });

  test('null is a value like any other', () => {
    assert.deepEqual(applyRowPatches({ a: 1 }, [{ op: 'replace', path: 'a', value: null }]), { a: null });
  });

  test('1 to 1000 operations, else BAD_USER_INPUT', () => {
    fails([], 'BAD_USER_INPUT');
    fails('replace', 'BAD_USER_INPUT');
    fails(undefined, 'BAD_USER_INPUT');
    const op = { op: 'replace', path: 'name', value: 'n' };
    fails(
      Array.from({ length: 1001 }, () => op),
      'BAD_USER_INPUT',
    );
    assert.deepEqual(
      (
        applyRowPatches(
          data,
          Array.from({ length: 1000 }, () => op),
        ) as { name: string }
      ).name,
      'n',
    );
  });
});
