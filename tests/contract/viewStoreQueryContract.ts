import assert from 'node:assert/strict';
import { describe, test as nodeTest } from 'node:test';
import type { CompareOp, FieldRef, Filter, JsonPathSegment, JsonTest, Scalar, SortKey } from '../../contracts/index.ts';
import { PROJECTION, createSkipper, idsSorted, idsWhere, pos, ref, seed, withStore } from './viewStoreFixtures.ts';
import type { OpenViewStore } from './viewStoreFixtures.ts';

const cmp = (field: string, op: CompareOp, value: Scalar, extra: RefExtra = {}): Filter => ({
  kind: 'compare',
  ref: { field, ...extra },
  op,
  value,
});
const json = (path: FieldRef['path'], cast?: FieldRef['cast']): RefExtra => (cast === undefined ? { path } : { path, cast });
type RefExtra = Omit<FieldRef, 'field'>;
const asc = (field: string, extra: RefExtra = {}): SortKey => ({ ref: { field, ...extra }, direction: 'asc' });
const desc = (field: string, extra: RefExtra = {}): SortKey => ({ ref: { field, ...extra }, direction: 'desc' });
const isNull = (field: string, extra: RefExtra = {}): Filter => ({ kind: 'isNull', ref: { field, ...extra } });
const and = (...filters: Filter[]): Filter => ({ kind: 'and', filters });
const or = (...filters: Filter[]): Filter => ({ kind: 'or', filters });
const not = (filter: Filter): Filter => ({ kind: 'not', filter });
const jt = (path: readonly JsonPathSegment[], test: JsonTest, field = 'data'): Filter => ({ kind: 'json', field, path, test });

/** Filters, casts, sorting and paging (see viewStoreFixtures.sampleDocs for the data); `skipper` skips named tests. */
export function viewStoreQueryContract(open: OpenViewStore, skipper = createSkipper()): void {
  const test = (title: string, fn: () => Promise<void>): void => void nodeTest(title, skipper.optionsFor(title), fn);
  /** Each case: filter -> expected ids (sorted). One store serves a whole group. */
  function cases(title: string, list: readonly (readonly [string, Filter, readonly string[]])[]): void {
    test(title, () =>
      withStore(open, async (store) => {
        await seed(store);
        for (const [name, filter, expected] of list) {
          assert.deepEqual(await idsWhere(store, filter), expected, name);
        }
      }),
    );
  }

  describe('filters', () => {
    cases('compare on typed columns', [
      ['text eq', cmp('title', 'eq', 'apple'), ['a']],
      ['text ne skips null', cmp('title', 'ne', 'apple'), ['b', 'c', 'e']],
      ['text gt by code point', cmp('title', 'gt', 'banana'), ['c', 'e']],
      ['text lt', cmp('title', 'lt', 'apple'), []],
      ['integer gt', cmp('n', 'gt', 2), ['c', 'e']],
      ['integer gte', cmp('n', 'gte', 2), ['b', 'c', 'e']],
      ['integer lt', cmp('n', 'lt', 3), ['a', 'b']],
      ['integer lte', cmp('n', 'lte', 3), ['a', 'b', 'c']],
      ['real gt', cmp('score', 'gt', 0), ['a', 'b']],
      ['real lte', cmp('score', 'lte', 0), ['d', 'e']],
      ['boolean eq true', cmp('flag', 'eq', true), ['a', 'd']],
      ['boolean eq false', cmp('flag', 'eq', false), ['b', 'e']],
      ['boolean ne true skips null', cmp('flag', 'ne', true), ['b', 'e']],
      ['booleans compare as booleans', cmp('flag', 'gt', false), ['a', 'd']],
      ['a value of another type never equals', cmp('n', 'eq', '1'), []],
      ['ne matches present values of another type', cmp('n', 'ne', 'x'), ['a', 'b', 'c', 'e']],
      ['eq null never matches', cmp('title', 'eq', null), []],
      ['ne null never matches', cmp('title', 'ne', null), []],
      ['gt null never matches', cmp('n', 'gt', null), []],
    ]);

    cases('in, isNull, all and logic', [
      ['in ignores null', { kind: 'in', ref: { field: 'n' }, values: [1, 3, null] }, ['a', 'c']],
      ['in with an empty list', { kind: 'in', ref: { field: 'n' }, values: [] }, []],
      ['in ignores other types', { kind: 'in', ref: { field: 'title' }, values: ['apple', 5] }, ['a']],
      ['isNull text', isNull('title'), ['d']],
      ['isNull real', isNull('score'), ['c']],
      ['isNull boolean', isNull('flag'), ['c']],
      ['isNull json', isNull('data'), ['d']],
      ['all', { kind: 'all' }, ['a', 'b', 'c', 'd', 'e']],
      ['empty and matches all', and(), ['a', 'b', 'c', 'd', 'e']],
      ['empty or matches nothing', or(), []],
      ['not matches rows whose value is null', not(cmp('title', 'eq', 'apple')), ['b', 'c', 'd', 'e']],
      ['not isNull', not(isNull('title')), ['a', 'b', 'c', 'e']],
      ['nested or/and', or(cmp('n', 'eq', 1), and(cmp('score', 'gt', 0), cmp('flag', 'eq', false))), ['a', 'b']],
      ['not of or', not(or(cmp('n', 'eq', 1), cmp('n', 'eq', 2))), ['c', 'd', 'e']],
      ['double not and and', and(not(not(cmp('flag', 'eq', true))), cmp('n', 'gte', 1)), ['a']],
    ]);

    cases('json paths', [
      ['string value', cmp('data', 'eq', 'x', json(['s'])), ['a']],
      ['number value', cmp('data', 'eq', 5, json(['s'])), ['c']],
      ['strings compare with strings only', cmp('data', 'gt', 'a', json(['s'])), ['a', 'b']],
      ['number 10 is not the string 10', cmp('data', 'eq', 10, json(['num'])), ['a']],
      ['string 10 is not the number 10', cmp('data', 'eq', '10', json(['num'])), ['b']],
      ['numbers compare numerically', cmp('data', 'gt', 2, json(['num'])), ['a', 'e']],
      ['json true is a boolean', cmp('data', 'eq', true, json(['b'])), ['a']],
      ['json true is not the number 1', cmp('data', 'eq', 1, json(['b'])), []],
      ['the number 1 is not true', cmp('data', 'eq', true, json(['arr', 0])), []],
      ['arrays are not strings', cmp('data', 'lt', '~', json(['arr'])), []],
      ['objects are not strings', cmp('data', 'eq', '{"deep":{"v":5}}', json(['nested'])), []],
      ['json false', cmp('data', 'eq', false, json(['b'])), ['c']],
      ['ne on json skips missing', cmp('data', 'ne', true, json(['b'])), ['b', 'c']],
      ['array index', cmp('data', 'eq', 1, json(['arr', 0])), ['a']],
      ['index then property', cmp('data', 'eq', 'w', json(['arr', 1, 'k'])), ['e']],
      ['missing path isNull', isNull('data', json(['arr', 1, 'k'])), ['b', 'c', 'd']],
      ['property name with a dot', cmp('data', 'eq', 1, json(['a.b'])), ['a']],
      ['property name with a quote', cmp('data', 'eq', 'q', json(["it's"])), ['a']],
      ['deep path', cmp('data', 'gte', 5, json(['nested', 'deep', 'v'])), ['a', 'c']],
      ['json null and missing are null', isNull('data', json(['s'])), ['d', 'e']],
      ['in on json', { kind: 'in', ref: { field: 'data', path: ['num'] }, values: [10, 2] }, ['a', 'c']],
      ['in on json strings', { kind: 'in', ref: { field: 'data', path: ['num'] }, values: ['10'] }, ['b']],
      ['empty path is the whole value', cmp('data', 'eq', 'x', json([])), []],
    ]);

    cases('casts', [
      ['int truncates numeric strings', cmp('data', 'eq', 3, json(['ns'], 'int')), ['a']],
      ['int compares numerically', cmp('data', 'gt', 5, json(['ns'], 'int')), ['b']],
      ['int: uncastable behaves as null', isNull('data', json(['ns'], 'int')), ['c', 'd', 'e']],
      ['int ne skips uncastable', cmp('data', 'ne', 3, json(['ns'], 'int')), ['b']],
      ['uncastable operand matches nothing', cmp('data', 'eq', 'abc', json(['ns'], 'int')), []],
      ['float', cmp('data', 'gt', 3.5, json(['ns'], 'float')), ['a', 'b']],
      ['float equates numbers and numeric strings', cmp('data', 'eq', 10, json(['num'], 'float')), ['a', 'b']],
      ['text of numbers', cmp('data', 'eq', '10', json(['num'], 'text')), ['a', 'b']],
      ['text compares as text', cmp('data', 'lt', '2', json(['num'], 'text')), ['a', 'b']],
      ['text of booleans', cmp('data', 'eq', 'true', json(['b'], 'text')), ['a', 'b']],
      ['boolean', cmp('data', 'eq', true, json(['b'], 'boolean')), ['a']],
      ['boolean: strings are uncastable', isNull('data', json(['b'], 'boolean')), ['b', 'd', 'e']],
      ['timestamp compares instants', cmp('data', 'eq', '2025-01-01T00:00:00.000Z', json(['t'], 'timestamp')), ['a', 'b']],
      ['timestamp gt', cmp('data', 'gt', '2025-01-01T00:00:00+00:00', json(['t'], 'timestamp')), ['e']],
      ['timestamp: non-dates are null', isNull('data', json(['t'], 'timestamp')), ['c', 'd']],
      ['cast of a typed column', cmp('n', 'eq', '10', { cast: 'text' }), ['e']],
      ['text cast orders as text', cmp('n', 'gt', '2', { cast: 'text' }), ['c']],
      ['in with a cast', { kind: 'in', ref: { field: 'data', path: ['num'], cast: 'float' }, values: ['10', 2.5, 'zz', null] }, ['a', 'b', 'e']],
    ]);
  });

  describe('json tests (row query grammar)', () => {
    cases('equality, in and order', [
      ['deep equality of objects', jt(['nested'], { op: 'equals', value: { deep: { v: 5 } } }), ['a']],
      ['deep equality of arrays', jt(['tags'], { op: 'equals', value: ['news'] }), ['b']],
      ['equals null is a JSON null, not a missing path', jt(['s'], { op: 'equals', value: null }), ['e']],
      ['equals is type-exact', jt(['num'], { op: 'equals', value: 10 }), ['a']],
      ['case-sensitive by default', jt(['tags', 1], { op: 'equals', value: 'tech' }), []],
      ['insensitive equality', jt(['tags', 1], { op: 'equals', value: 'tECH', insensitive: true }), ['a']],
      ['in', jt(['s'], { op: 'in', values: ['x', 5] }), ['a', 'c']],
      ['in with an empty list', jt(['s'], { op: 'in', values: [] }), []],
      ['number operand compares numbers only', jt(['num'], { op: 'gt', value: 2 }), ['a', 'e']],
      ['string operand compares strings only', jt(['num'], { op: 'gt', value: '1' }), ['b']],
      ['lte', jt(['nested', 'deep', 'v'], { op: 'lte', value: 5 }), ['a']],
      ['a missing path matches nothing', jt(['zzz'], { op: 'equals', value: null }), []],
      ['not of a missing path matches', not(jt(['zzz'], { op: 'equals', value: 1 })), ['a', 'b', 'c', 'd', 'e']],
      ['plain columns act as JSON scalars', jt([], { op: 'equals', value: 'apple' }, 'title'), ['a']],
      ['boolean columns', jt([], { op: 'equals', value: true }, 'flag'), ['a', 'd']],
      ['integer columns', jt([], { op: 'in', values: [2, '3', 10] }, 'n'), ['b', 'e']],
    ]);

    cases('strings, arrays and wildcards', [
      ['string_contains', jt(['s'], { op: 'string_contains', value: 'x' }), ['a']],
      ['string_ends_with', jt(['s'], { op: 'string_ends_with', value: 'y' }), ['b']],
      ['an empty operand matches every string', jt(['s'], { op: 'string_ends_with', value: '' }), ['a', 'b']],
      ['insensitive starts_with', jt(['tags', '*'], { op: 'string_starts_with', value: 'TE', insensitive: true }), ['a']],
      ['wildcard: any element matches', jt(['tags', '*'], { op: 'string_contains', value: 'ew' }), ['a', 'b']],
      ['array_contains a scalar', jt(['tags'], { op: 'array_contains', value: 'news' }), ['a', 'b']],
      ['array_contains every element of an array', jt(['tags'], { op: 'array_contains', value: ['news', 'Tech'] }), ['a']],
      ['array_contains [] matches every array', jt(['tags'], { op: 'array_contains', value: [] }), ['a', 'b', 'c']],
      ['array_contains an object', jt(['items'], { op: 'array_contains', value: { price: 1 } }), ['b']],
      ['wildcard then property', jt(['items', '*', 'price'], { op: 'gt', value: 10 }), ['a', 'e']],
      ['nested wildcards', jt(['items', '*', 'tags', '*'], { op: 'equals', value: 'y' }), ['e']],
      ['negated wildcard', not(jt(['items', '*', 'price'], { op: 'gt', value: 10 })), ['b', 'c', 'd']],
      ['wildcard over a non-array', jt(['s', '*'], { op: 'equals', value: 'x' }), []],
      ['index after property', jt(['items', 1, 'name'], { op: 'equals', value: 'Book' }), ['a']],
    ]);
  });

  describe('sorting and paging', () => {
    test('nulls and uncastable values sort last in both directions', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.deepEqual(await idsSorted(store, [asc('n')]), ['a', 'b', 'c', 'e', 'd']);
        assert.deepEqual(await idsSorted(store, [desc('n')]), ['e', 'c', 'b', 'a', 'd']);
        assert.deepEqual(await idsSorted(store, [asc('title')]), ['a', 'b', 'c', 'e', 'd']);
        assert.deepEqual(await idsSorted(store, [desc('title')]), ['e', 'c', 'b', 'a', 'd']);
        assert.deepEqual(await idsSorted(store, [asc('data', json(['ns'], 'int'))]), ['a', 'b', 'c', 'd', 'e']);
        assert.deepEqual(await idsSorted(store, [desc('data', json(['ns'], 'int'))]), ['b', 'a', 'c', 'd', 'e']);
        assert.deepEqual(await idsSorted(store, [asc('data', json(['num'], 'text'))]), ['a', 'b', 'c', 'e', 'd']);
        assert.deepEqual(await idsSorted(store, [desc('data', json(['num'], 'text'))]), ['e', 'c', 'a', 'b', 'd']);
        assert.deepEqual(await idsSorted(store, [asc('data', json(['t'], 'timestamp'))]), ['a', 'b', 'e', 'c', 'd']);
        assert.deepEqual(await idsSorted(store, [desc('data', json(['t'], 'timestamp'))]), ['e', 'a', 'b', 'c', 'd']);
        assert.deepEqual(await idsSorted(store, [asc('data', json(['num'], 'float'))]), ['c', 'e', 'a', 'b', 'd']);
      }));

    test('booleans sort false before true; several keys', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.deepEqual(await idsSorted(store, [asc('flag')]), ['b', 'e', 'a', 'd', 'c']);
        assert.deepEqual(await idsSorted(store, [desc('flag'), asc('n')]), ['a', 'd', 'b', 'e', 'c']);
        assert.deepEqual(await idsSorted(store, [asc('flag'), desc('score')]), ['b', 'e', 'a', 'd', 'c']);
        assert.deepEqual(await idsSorted(store, [asc('data', json(['b'], 'boolean')), desc('id')]), ['c', 'a', 'e', 'd', 'b']);
      }));

    test('text sorts by Unicode code point', () =>
      withStore(open, async (store) => {
        // UTF-16 order would put the emoji (a surrogate pair) before U+FFFF.
        const titles = ['\u{1F600}', '\uFFFF', 'é', 'z', 'Z', 'a'];
        await seed(
          store,
          titles.map((title, i) => ({ id: `t${i}`, title })),
        );
        const docs = await store.find(PROJECTION, 'items', { orderBy: [asc('title')] });
        assert.deepEqual(
          docs.map((d) => d.title),
          ['Z', 'a', 'z', 'é', '\uFFFF', '\u{1F600}'],
        );
        assert.deepEqual(await idsWhere(store, cmp('title', 'gt', '\uFFFF')), ['t0']);
      }));

    test('limit, offset and count', () =>
      withStore(open, async (store) => {
        await seed(store);
        assert.deepEqual(await idsSorted(store, [asc('n')], { limit: 2 }), ['a', 'b']);
        assert.deepEqual(await idsSorted(store, [asc('n')], { limit: 2, offset: 2 }), ['c', 'e']);
        assert.deepEqual(await idsSorted(store, [asc('n')], { offset: 4 }), ['d']);
        assert.deepEqual(await idsSorted(store, [asc('n')], { limit: 0 }), []);
        assert.deepEqual(await idsSorted(store, [asc('n')], { offset: 9 }), []);
        assert.equal(await store.count(PROJECTION, 'items'), 5);
        assert.equal(await store.count(PROJECTION, 'items', cmp('flag', 'eq', true)), 2);
        assert.equal(await store.count(PROJECTION, 'items', not(cmp('flag', 'eq', true))), 3);
        assert.equal(await store.count(PROJECTION, 'pairs'), 0);
        const all = await store.find(PROJECTION, 'items');
        assert.equal(all.length, 5);
      }));

    test('values bound, never spliced into queries', () =>
      withStore(open, async (store) => {
        const nasty = `x' OR 1=1 --"); DROP TABLE items; --`;
        await seed(store, [
          { id: 'n1', title: nasty, data: { [nasty]: nasty } },
          { id: 'n2', title: 'other' },
        ]);
        assert.deepEqual(await idsWhere(store, cmp('title', 'eq', nasty)), ['n1']);
        assert.deepEqual(await idsWhere(store, cmp('data', 'eq', nasty, json([nasty]))), ['n1']);
        assert.deepEqual(await idsWhere(store, cmp('title', 'eq', `' OR 1=1 --`)), []);
        assert.equal(await store.count(PROJECTION, 'items'), 2);
        assert.equal(await store.checkpoint(ref()), pos(1));
      }));
  });
}
