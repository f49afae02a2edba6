import type { Cast, PathSegment } from '../../../contracts/index.ts';
import { encodeKey } from './mongoViewLayout.ts';

/** A MongoDB aggregation expression. */
export type Expr = unknown;

const REMOVE = '$$REMOVE';
const NUMBER_TYPES = ['double', 'int', 'long', 'decimal'];
// castValue's patterns (contracts/views/castValue.ts) for PCRE: ASCII digits only, `\z` (a PCRE `$` would also
// match before a final newline).
const NUMERIC = '^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?\\z';
const DATE_TIME =
  '^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]+))?)?' + '(?:([Zz])|([+-])([0-9]{2}):?([0-9]{2}))?\\z';
const MAX_EXACT = 2 ** 53;

const isType = (x: Expr, type: string): Expr => ({ $eq: [{ $type: x }, type] });
const isNumber = (x: Expr): Expr => ({ $in: [{ $type: x }, NUMBER_TYPES] });
const bind = (vars: Record<string, Expr>, expr: Expr): Expr => ({ $let: { vars, in: expr } });
const when = (condition: Expr, then: Expr, otherwise: Expr = null): Expr => ({ $cond: [condition, then, otherwise] });

/**
 * The value at `path` inside the json value `base`, or missing when the path does not resolve. Each step checks the
 * container type, because field paths (`$a.b`) would map over arrays and never index them.
 */
export function navigate(base: Expr, path: readonly PathSegment[]): Expr {
  let expr = base;
  for (const segment of path) {
    const step =
      typeof segment === 'number'
        ? when({ $isArray: ['$$v'] }, { $arrayElemAt: ['$$v', segment] }, REMOVE)
        : when(isType('$$v', 'object'), { $getField: { field: { $literal: encodeKey(segment) }, input: '$$v' } }, REMOVE);
    expr = bind({ v: expr }, step);
  }
  return expr;
}

/** A finite number from a number or a numeric string, else null. */
function toNumber(x: string): Expr {
  const parsed = when(
    isNumber(x),
    { $toDouble: x },
    when(
      isType(x, 'string'),
      when({ $regexMatch: { input: x, regex: NUMERIC } }, { $convert: { input: x, to: 'double', onError: null, onNull: null } }),
    ),
  );
  const finite = { $and: [{ $ne: ['$$n', null] }, { $lt: ['$$n', Infinity] }, { $gt: ['$$n', -Infinity] }] };
  return bind({ n: parsed }, when(finite, '$$n'));
}

/** JSON text of a number: integral values through a long, so that 1e12 stored as a double prints as 1000000000000. */
function numberText(x: string): Expr {
  const integral = { $and: [{ $eq: [{ $trunc: [x] }, x] }, { $lt: [{ $abs: x }, MAX_EXACT] }] };
  return when(integral, { $toString: { $toLong: x } }, { $toString: x });
}

/** Epoch milliseconds of an ISO 8601 date-time string (castValue's parseTimestamp), else null. */
function timestamp(x: string): Expr {
  const part = (i: number): Expr => ({ $arrayElemAt: ['$$m.captures', i] });
  const int = (i: number, fallback: number | null = null): Expr => ({ $ifNull: [{ $toInt: part(i) }, fallback] });
  const millis = when({ $eq: [part(6), null] }, 0, { $toInt: { $substrCP: [{ $concat: [part(6), '00'] }, 0, 3] } });
  const plain = {
    $and: [
      { $gte: ['$$y', 100] },
      { $gte: ['$$mo', 1] },
      { $lte: ['$$mo', 12] },
      { $gte: ['$$d', 1] },
      { $lte: ['$$h', 23] },
      { $lte: ['$$mi', 59] },
      { $lte: ['$$s', 59] },
      { $lte: ['$$oh', 23] },
      { $lte: ['$$om', 59] },
    ],
  };
  const date = {
    $dateFromParts: { year: '$$y', month: '$$mo', day: '$$d', hour: '$$h', minute: '$$mi', second: '$$s', millisecond: '$$ms' },
  };
  const offset = { $multiply: [{ $add: [{ $multiply: ['$$oh', 60] }, '$$om'] }, 60_000] };
  const utc = { $toLong: '$$date' };
  const instant = {
    $switch: {
      branches: [
        { case: { $eq: ['$$sign', '+'] }, then: { $subtract: [utc, offset] } },
        { case: { $eq: ['$$sign', '-'] }, then: { $add: [utc, offset] } },
      ],
      default: utc,
    },
  };
  // $dateFromParts rolls February 30 over into March: a day that does not survive the round trip is invalid.
  const checked = bind({ date }, when({ $eq: [{ $dayOfMonth: '$$date' }, '$$d'] }, instant));
  const parts = {
    y: int(0),
    mo: int(1),
    d: int(2),
    h: int(3),
    mi: int(4),
    s: int(5, 0),
    ms: millis,
    sign: part(8),
    oh: int(9, 0),
    om: int(10, 0),
  };
  const found = when({ $ne: ['$$m', null] }, bind(parts, when(plain, checked)));
  const parsed = bind({ m: { $regexFind: { input: x, regex: DATE_TIME } } }, found);
  return when(isType(x, 'string'), parsed);
}

/**
 * castValue (contracts/views/castValue.ts) as an aggregation expression over `value`: text, a number, or null when
 * the value cannot be cast. Needs MongoDB 5.0+ ($getField). Known difference: the text of a non-integral double
 * follows MongoDB's $toString, which may print fewer digits than JSON.stringify.
 */
export function castExpr(cast: Cast, value: Expr): Expr {
  const x = '$$x';
  let expr: Expr;
  switch (cast) {
    case 'text':
      expr = {
        $switch: {
          branches: [
            { case: isType(x, 'string'), then: x },
            { case: isNumber(x), then: numberText(x) },
            { case: isType(x, 'bool'), then: when(x, 'true', 'false') },
          ],
          default: null,
        },
      };
      break;
    case 'int':
      // `+ 0` turns -0 into 0, as castValue does.
      expr = bind({ t: toNumber(x) }, when({ $eq: ['$$t', null] }, null, { $add: [{ $trunc: ['$$t'] }, 0] }));
      break;
    case 'float':
      expr = toNumber(x);
      break;
    case 'boolean':
      expr = when(isType(x, 'bool'), when(x, 1, 0));
      break;
    case 'timestamp':
      expr = timestamp(x);
      break;
    default: {
      const unknownCast: never = cast;
      throw new Error(`unknown cast "${String(unknownCast)}"`);
    }
  }
  return { $ifNull: [bind({ x: value }, expr), null] };
}
