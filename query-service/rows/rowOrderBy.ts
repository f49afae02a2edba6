import { castValue, isCast } from '../../contracts/index.ts';
import type { Scalar, TableModel } from '../../contracts/index.ts';
import type { KeysetKey } from '../paging/keysetPage.ts';
import { parsePathInput, resolveDataPath, valueAtPath } from './rowPath.ts';
import { badInput, given, isRecord, type InputPath } from './rowQueryError.ts';

export const MAX_ORDER_BY = 10;

type Direction = 'asc' | 'desc';

function direction(value: unknown, at: InputPath): Direction {
  if (value === 'asc' || value === 'desc') return value;
  throw badInput(at, 'direction must be "asc" or "desc"');
}

const isString = (value: Scalar): boolean => typeof value === 'string';
const rowIdKey = (dir: Direction): KeysetKey => ({ ref: { field: 'rowId' }, direction: dir, valueOf: (doc) => doc.rowId, accepts: isString });
const timeKey = (field: 'createdAt' | 'updatedAt', dir: Direction): KeysetKey => ({
  ref: { field },
  direction: dir,
  valueOf: (doc) => doc[field],
  accepts: (value) => typeof value === 'string' && castValue('timestamp', value) !== null,
});

/** Default order of generated-api.md §3.2: `createdAt desc`, then `id asc`. */
export const DEFAULT_ROW_ORDER: readonly KeysetKey[] = [timeKey('createdAt', 'desc'), rowIdKey('asc')];

function dataKey(model: TableModel, input: unknown, at: InputPath): KeysetKey {
  if (!isRecord(input)) throw badInput(at, 'data must be an object with a path');
  for (const key of Object.keys(input)) {
    if (key !== 'path' && key !== 'direction' && key !== 'type') throw badInput([...at, key], `unknown field "${key}"`);
  }
  if (!given(input.path)) throw badInput([...at, 'path'], 'path is required');
  const raw = parsePathInput(input.path, [...at, 'path']);
  const { segments, node } = resolveDataPath(model, raw, [...at, 'path'], false);
  if (node.kind !== 'string' && node.kind !== 'number' && node.kind !== 'boolean') {
    throw badInput([...at, 'path'], `path "${raw.join('.')}" must reach a string, number or boolean field`);
  }
  const dir = given(input.direction) ? direction(input.direction, [...at, 'direction']) : 'asc';
  const cast = given(input.type) ? input.type : 'text';
  if (!isCast(cast)) throw badInput([...at, 'type'], 'type must be one of text, int, float, boolean, timestamp');
  // An x-index / x-unique field sorted as its own type holds only values of that type, so its uncast value orders
  // the same: the order reads the field's index (readers/rowIndexes.ts fieldIndex).
  const ownType =
    (node.kind === 'string' && cast === 'text') || (node.kind === 'number' && cast === 'float') || (node.kind === 'boolean' && cast === 'boolean');
  const indexed = node.indexed === true && ownType;
  return {
    ref: indexed ? { field: 'data', path: segments } : { field: 'data', path: segments, cast },
    direction: dir,
    valueOf: (doc) => valueAtPath(doc.data, segments),
    // A missing or uncastable value sorts as null; any other is the field's own type, castable by the sort's cast.
    accepts: (value) => value === null || (typeof value === node.kind && castValue(cast, value) !== null),
  };
}

/**
 * `orderBy` (a list of 1-10 RowOrderByInput objects, each with exactly one key; a single object is accepted)
 * -> keyset keys over row versions, always ending in `rowId asc` so the order is total.
 */
export function parseOrderBy(input: unknown, model: TableModel, at: InputPath = ['orderBy']): KeysetKey[] {
  if (!given(input)) return [...DEFAULT_ROW_ORDER];
  const list = Array.isArray(input) ? input : [input];
  if (list.length < 1 || list.length > MAX_ORDER_BY) throw badInput(at, `orderBy must have 1 to ${MAX_ORDER_BY} entries`);
  const keys: KeysetKey[] = [];
  for (const [i, item] of list.entries()) {
    const here = Array.isArray(input) ? [...at, i] : at;
    if (!isRecord(item)) throw badInput(here, 'each orderBy entry must be an object');
    const entries = Object.entries(item).filter(([, v]) => given(v));
    const first = entries[0];
    if (entries.length !== 1 || first === undefined) throw badInput(here, 'each orderBy entry must have exactly one key');
    const [key, value] = first;
    switch (key) {
      case 'id':
        keys.push(rowIdKey(direction(value, [...here, key])));
        break;
      case 'createdAt':
      case 'updatedAt':
        keys.push(timeKey(key, direction(value, [...here, key])));
        break;
      case 'data':
        keys.push(dataKey(model, value, [...here, key]));
        break;
      default:
        throw badInput([...here, key], `unknown orderBy field "${key}"`);
    }
  }
  // The row id is unique: once it sorts, later keys never decide anything.
  const idAt = keys.findIndex((k) => k.ref.field === 'rowId');
  if (idAt >= 0) return keys.slice(0, idAt + 1);
  return [...keys, rowIdKey('asc')];
}
