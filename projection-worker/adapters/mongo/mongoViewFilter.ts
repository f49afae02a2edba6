import { BSONRegExp } from 'mongodb';
import { castValue, isCast } from '../../../contracts/index.ts';
import type { CompareOp, FieldRef, FieldType, Filter, JsonPathSegment, JsonTest, Scalar } from '../../../contracts/index.ts';
import { castExpr, navigate } from './mongoViewCast.ts';
import type { Expr } from './mongoViewCast.ts';
import { encodeJson, encodeKey } from './mongoViewLayout.ts';
import type { CollectionLayout } from './mongoViewLayout.ts';

/** A MongoDB query document. */
export type Query = Record<string, unknown>;
/** Operators on one value (`{ $eq: 1, $not: { $type: 'array' } }`), all of which must hold. */
type Ops = Record<string, unknown>;
/** Alternatives: a value matches when any operator document matches it. */
type Alt = readonly Ops[];

/** Thrown for a field the layout does not declare (the caller may reload a spec another process extended). */
export class UnknownFieldError extends Error {
  constructor(collection: string, field: string) {
    super(`${collection}: unknown field "${field}"`);
    this.name = 'UnknownFieldError';
  }
}

export const MATCH_NONE: Query = { _id: { $exists: false } };
const NOT_ARRAY = { $not: { $type: 'array' } } as const;
const OPERATORS = { eq: '$eq', ne: '$ne', gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;
const ORDER = { gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' } as const;

type Kind = 'string' | 'number' | 'boolean';
const COLUMN_KINDS: Readonly<Record<Exclude<FieldType, 'json'>, Kind>> = {
  text: 'string',
  integer: 'number',
  real: 'number',
  boolean: 'boolean',
};

const and = (queries: readonly Query[]): Query => (queries.length === 1 ? (queries[0] as Query) : { $and: queries });
function or(queries: readonly Query[]): Query {
  if (queries.length === 0) return MATCH_NONE;
  return queries.length === 1 ? (queries[0] as Query) : { $or: queries };
}

/** Regex operators; PCRE (MongoDB) and Java (the test stand-in) both read `\` + ASCII punctuation as a literal. */
function regex(text: string, start: boolean, end: boolean, insensitive: boolean | undefined): Ops {
  const escaped = text.replace(/\0/g, '\\x00').replace(/[\x20-\x2F\x3A-\x40\x5B-\x60\x7B-\x7E]/g, '\\$&');
  return { $regex: new BSONRegExp(`${start ? '\\A' : ''}${escaped}${end ? '\\z' : ''}`, insensitive === true ? 'i' : '') };
}

/** Exact equality with a JSON operand. MongoDB's `$eq` on an array also matches arrays merely containing the operand. */
function equalsOps(operand: unknown, insensitive: boolean | undefined): Ops | null {
  if (operand === null) return { $type: 'null', ...NOT_ARRAY };
  if (typeof operand === 'number' && !Number.isFinite(operand)) return null;
  if (typeof operand === 'string' && insensitive === true) return { ...regex(operand, true, true, true), ...NOT_ARRAY };
  if (typeof operand === 'string' || typeof operand === 'number' || typeof operand === 'boolean') {
    return { $eq: operand, ...NOT_ARRAY };
  }
  if (typeof operand !== 'object') return null;
  const stored = encodeJson(operand);
  // An array is never an element of itself, so this excludes exactly the containing arrays.
  return Array.isArray(operand) ? { $eq: stored, $not: { $elemMatch: { $eq: stored } } } : { $eq: stored, ...NOT_ARRAY };
}

/** The JsonTest as alternatives on the value reached (generated-api.md §3.1). */
function testAlt(t: JsonTest): Alt {
  switch (t.op) {
    case 'equals': {
      const ops = equalsOps(t.value, t.insensitive);
      return ops === null ? [] : [ops];
    }
    case 'in': {
      const plain = t.values.filter((v) => typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && t.insensitive !== true));
      const others = t.values.filter((v) => !plain.includes(v));
      const alt = others.map((v) => equalsOps(v, t.insensitive)).filter((ops): ops is Ops => ops !== null);
      const finite = plain.filter((v) => typeof v !== 'number' || Number.isFinite(v));
      return finite.length === 0 ? alt : [{ $in: finite, ...NOT_ARRAY }, ...alt];
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const ok = typeof t.value === 'string' || (typeof t.value === 'number' && Number.isFinite(t.value));
      return ok ? [{ [ORDER[t.op]]: t.value, ...NOT_ARRAY }] : [];
    }
    case 'string_contains':
    case 'string_starts_with':
    case 'string_ends_with':
      if (t.value === '') return [{ $type: 'string', ...NOT_ARRAY }];
      return [{ ...regex(t.value, t.op === 'string_starts_with', t.op === 'string_ends_with', t.insensitive), ...NOT_ARRAY }];
    case 'array_contains': {
      const wanted = (Array.isArray(t.value) ? (t.value as readonly unknown[]) : [t.value]).map((w) => equalsOps(w, false));
      if (wanted.some((w) => w === null)) return [];
      const each = wanted.map((w) => ({ $elemMatch: w }));
      if (each.length === 0) return [{ $type: 'array' }];
      return [each.length === 1 ? (each[0] as Ops) : { $all: each }];
    }
    default: {
      const unknownTest: never = t;
      throw new Error(`unknown json test ${JSON.stringify(unknownTest)}`);
    }
  }
}

function segmentKey(segment: JsonPathSegment): string {
  if (typeof segment === 'number') {
    if (!Number.isSafeInteger(segment) || segment < 0) throw new Error(`invalid array index ${segment} in path`);
    return String(segment);
  }
  if (typeof segment !== 'string') throw new Error('path segments must be strings or numbers');
  return encodeKey(segment);
}

const join = (base: string, keys: readonly string[]): string => [base, ...keys].filter((k) => k !== '').join('.');

/** The dotted document path of a value inside a json field (`data.sku`), as the queries of `jsonTest` name it. */
export function documentPath(field: string, path: readonly JsonPathSegment[]): string {
  return join(field, path.map(segmentKey));
}

/**
 * A dotted path plus guards. MongoDB would walk into every element of an array met on the way to a property; a
 * property step is only taken from a value that is not an array. Index steps are exact: no stored object key looks
 * like a number (encodeKey). `guardFirst` is false inside `$elemMatch`, where an array element that is itself an
 * array is seen as an object with numeric keys only, so a property step finds nothing anyway.
 */
function dotted(base: string, path: readonly JsonPathSegment[], guardFirst: boolean): { path: string; guards: Query } {
  const keys = path.map(segmentKey);
  const guards: Query = {};
  path.forEach((segment, i) => {
    if (typeof segment === 'string' && (i > 0 || guardFirst)) guards[join(base, keys.slice(0, i))] = NOT_ARRAY;
  });
  return { path: join(base, keys), guards };
}

/** The result of one level: operators on an array element itself, or query documents (alternatives). */
type Level = { readonly kind: 'element'; readonly alt: Alt } | { readonly kind: 'query'; readonly queries: readonly Query[] };

function place(base: string, path: readonly JsonPathSegment[], guardFirst: boolean, alt: Alt): Level {
  const at = dotted(base, path, guardFirst);
  if (at.path === '') return { kind: 'element', alt };
  return { kind: 'query', queries: alt.map((ops) => ({ ...at.guards, [at.path]: ops })) };
}

/**
 * A `json` filter: each `*` becomes an `$elemMatch` on the array reached so far. Alternatives are lifted out of
 * `$elemMatch` (some element matches A or B = some element matches A, or some element matches B), so that every
 * `$elemMatch` holds one plain query or operator document.
 */
function jsonTest(layout: CollectionLayout, field: string, path: readonly JsonPathSegment[], t: JsonTest): Query {
  const type = layout.types.get(field);
  if (type === undefined) throw new UnknownFieldError(layout.collection, field);
  // A plain column behaves as the JSON scalar it holds.
  if (type !== 'json') {
    if (path.length > 0) throw new Error('a path needs a json field');
    return or(testAlt(t).map((ops) => ({ [field]: ops })));
  }
  const runs: JsonPathSegment[][] = [[]];
  for (const segment of path) {
    if (segment === '*') runs.push([]);
    else (runs[runs.length - 1] as JsonPathSegment[]).push(segment);
  }
  let level: Level | null = null;
  for (let i = runs.length - 1; i >= 0; i--) {
    const base = i === 0 ? field : '';
    const run = runs[i] as JsonPathSegment[];
    if (level === null) {
      level = place(base, run, i === 0, testAlt(t));
    } else {
      const inner: Level = level;
      const alt = inner.kind === 'element' ? inner.alt.map((ops) => ({ $elemMatch: ops })) : inner.queries.map((q) => ({ $elemMatch: q }));
      level = place(base, run, i === 0, alt);
    }
  }
  if (level === null || level.kind !== 'query') throw new Error('a json test needs a field');
  return or(level.queries);
}

/** Builds MongoDB queries for one collection (generated-api.md §3, the semantics of the SQLite adapter). */
export function createQueryBuilder(layout: CollectionLayout) {
  function typeOf(field: string): FieldType {
    const type = layout.types.get(field);
    if (type === undefined) throw new UnknownFieldError(layout.collection, field);
    return type;
  }

  /** Aggregation expression of a ref's value (before any cast). */
  function valueExpr(ref: FieldRef): Expr {
    const type = typeOf(ref.field);
    if (type !== 'json') {
      if (ref.path !== undefined && ref.path.length > 0) throw new Error(`${layout.collection}.${ref.field} is not json`);
      return `$${ref.field}`;
    }
    return navigate(`$${ref.field}`, ref.path ?? []);
  }

  function cast(ref: FieldRef): Expr {
    if (ref.cast === undefined) return valueExpr(ref);
    if (!isCast(ref.cast)) throw new Error(`unknown cast "${String(ref.cast)}"`);
    return castExpr(ref.cast, valueExpr(ref));
  }

  /** Where a ref's value sits: a dotted path, guards for json paths, and whether it can be an array. */
  function locate(ref: FieldRef): { path: string; guards: Query; json: boolean; kind: Kind | null } {
    const type = typeOf(ref.field);
    if (type !== 'json') {
      if (ref.path !== undefined && ref.path.length > 0) throw new Error(`${layout.collection}.${ref.field} is not json`);
      return { path: ref.field, guards: {}, json: false, kind: COLUMN_KINDS[type] };
    }
    return { ...dotted(ref.field, ref.path ?? [], true), json: true, kind: null };
  }

  /** True when the ref holds a value: not null, not missing (and castable when cast). */
  function present(ref: FieldRef): Query {
    if (ref.cast !== undefined) return { $expr: { $ne: [cast(ref), null] } };
    const at = locate(ref);
    if (!at.json) return { [at.path]: { $exists: true, $ne: null } };
    return or([
      { ...at.guards, [at.path]: { $type: 'array' } },
      { ...at.guards, [at.path]: { $exists: true, $not: { $type: 'null' } } },
    ]);
  }

  function compare(ref: FieldRef, op: CompareOp, value: Scalar): Query {
    if (!Object.hasOwn(OPERATORS, op)) throw new Error(`unknown operator "${String(op)}"`);
    if (value === null) return MATCH_NONE;
    if (ref.cast !== undefined) {
      const operand = castValue(ref.cast, value);
      if (operand === null) return MATCH_NONE;
      // $literal: an operand such as '$x' would otherwise be read as a field path.
      const test = { $and: [{ $ne: ['$$c', null] }, { [OPERATORS[op]]: ['$$c', { $literal: operand }] }] };
      return { $expr: { $let: { vars: { c: cast(ref) }, in: test } } };
    }
    const at = locate(ref);
    const sameKind = at.kind === null || at.kind === kindOf(value);
    // `ne` matches any present value that is not equal, including values of another type (and arrays).
    if (op === 'ne') {
      if (!sameKind) return present(ref);
      if (!at.json) return { [at.path]: { $exists: true, $nin: [value, null] } };
      return or([
        { ...at.guards, [at.path]: { $type: 'array' } },
        { ...at.guards, [at.path]: { $exists: true, $nin: [value, null] } },
      ]);
    }
    if (!sameKind) return MATCH_NONE;
    return { ...at.guards, [at.path]: { [OPERATORS[op]]: value, ...(at.json ? NOT_ARRAY : {}) } };
  }

  function within(ref: FieldRef, values: readonly Scalar[]): Query {
    if (ref.cast !== undefined) {
      const kind = ref.cast;
      const casts = values.flatMap((v) => (v === null ? [] : [castValue(kind, v)])).filter((v) => v !== null);
      if (casts.length === 0) return MATCH_NONE;
      const test = { $and: [{ $ne: ['$$c', null] }, { $in: ['$$c', { $literal: casts }] }] };
      return { $expr: { $let: { vars: { c: cast(ref) }, in: test } } };
    }
    const at = locate(ref);
    const matching = values.filter((v) => v !== null && (at.kind === null || kindOf(v) === at.kind));
    if (matching.length === 0) return MATCH_NONE;
    return { ...at.guards, [at.path]: { $in: matching, ...(at.json ? NOT_ARRAY : {}) } };
  }

  function where(filter: Filter): Query {
    switch (filter.kind) {
      case 'all':
        return {};
      case 'and':
        return filter.filters.length === 0 ? {} : and(filter.filters.map(where));
      case 'or':
        return or(filter.filters.map(where));
      case 'not':
        return { $nor: [where(filter.filter)] };
      case 'compare':
        return compare(filter.ref, filter.op, filter.value);
      case 'in':
        return within(filter.ref, filter.values);
      case 'isNull':
        return { $nor: [present(filter.ref)] };
      case 'json':
        return jsonTest(layout, filter.field, filter.path, filter.test);
      default: {
        const unknownFilter: never = filter;
        throw new Error(`unknown filter kind ${JSON.stringify(unknownFilter)}`);
      }
    }
  }

  return { where, cast, typeOf };
}

function kindOf(value: string | number | boolean): Kind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  return 'boolean';
}
