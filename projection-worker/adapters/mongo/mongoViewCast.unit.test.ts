import assert from 'node:assert/strict';
import { test } from 'node:test';
import { castValue } from '../../../contracts/index.ts';
import type { Cast, PathSegment } from '../../../contracts/index.ts';
import { castExpr, navigate } from './mongoViewCast.ts';
import { encodeJson } from './mongoViewLayout.ts';

// The test stand-in (jongodb) cannot evaluate these expressions, so this file checks how they are composed with a
// small evaluator of the aggregation operators they use, written from the MongoDB manual (missing is `undefined`).

type Vars = Readonly<Record<string, unknown>>;
const MISSING = undefined;

function typeName(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? 'int' : 'double';
  if (v instanceof Date) return 'date';
  return Array.isArray(v) ? 'array' : 'object';
}

/** BSON comparison order: missing < null < numbers < strings < objects < arrays < booleans < dates. */
function compare(a: unknown, b: unknown): number {
  const rank = (v: unknown): number =>
    ({ missing: 0, null: 1, int: 2, double: 2, string: 3, object: 4, array: 5, bool: 6, date: 7 })[typeName(v)] ?? 9;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' || typeof a === 'string' || typeof a === 'boolean') return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  if (a instanceof Date) return a.getTime() - (b as Date).getTime();
  return JSON.stringify(a) === JSON.stringify(b) ? 0 : 1;
}

const truthy = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== 0;
const pcre = (pattern: string): RegExp => new RegExp(pattern.replaceAll('\\z', '$').replaceAll('\\A', '^'));
function parseDouble(s: string): number {
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(s)) throw new Error(`cannot convert ${s}`);
  return Number(s);
}

function evaluate(expr: unknown, vars: Vars): unknown {
  if (typeof expr === 'string') {
    if (expr === '$$REMOVE') return MISSING;
    if (expr.startsWith('$$')) {
      const [name, ...path] = expr.slice(2).split('.');
      return path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], vars[name as string]);
    }
    if (expr.startsWith('$')) throw new Error(`field paths are not used here: ${expr}`);
    return expr;
  }
  if (Array.isArray(expr)) return expr.map((e) => evaluate(e, vars));
  if (typeof expr !== 'object' || expr === null) return expr;
  const [op, arg] = Object.entries(expr)[0] as [string, unknown];
  if (!op.startsWith('$')) return Object.fromEntries(Object.entries(expr).map(([k, e]) => [k, evaluate(e, vars)]));
  const a = arg as Record<string, unknown> & unknown[];
  const ev = (e: unknown): unknown => evaluate(e, vars);
  const args = (): unknown[] => (Array.isArray(arg) ? arg.map(ev) : [ev(arg)]);
  switch (op) {
    case '$literal':
      return arg;
    case '$let': {
      const bound = Object.fromEntries(Object.entries(a.vars as object).map(([k, e]) => [k, ev(e)]));
      return evaluate(a.in, { ...vars, ...bound });
    }
    case '$cond':
      return truthy(ev(a[0])) ? ev(a[1]) : ev(a[2]);
    case '$switch': {
      for (const branch of a.branches as { case: unknown; then: unknown }[]) if (truthy(ev(branch.case))) return ev(branch.then);
      return ev(a.default);
    }
    case '$and':
      return (arg as unknown[]).every((e) => truthy(ev(e)));
    case '$eq':
    case '$ne':
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte': {
      const c = compare(ev(a[0]), ev(a[1]));
      return { $eq: c === 0, $ne: c !== 0, $lt: c < 0, $lte: c <= 0, $gt: c > 0, $gte: c >= 0 }[op];
    }
    case '$in':
      return (ev(a[1]) as unknown[]).some((v) => compare(v, ev(a[0])) === 0);
    case '$type':
      return typeName(ev(arg));
    case '$isArray':
      return Array.isArray(args()[0]);
    case '$arrayElemAt':
      return (ev(a[0]) as unknown[])[ev(a[1]) as number];
    case '$getField':
      return (ev(a.input) as Record<string, unknown>)[ev(a.field) as string];
    case '$ifNull': {
      const v = ev(a[0]);
      return v === null || v === undefined ? ev(a[1]) : v;
    }
    case '$toDouble': {
      const v = args()[0];
      return typeof v === 'string' ? parseDouble(v) : v;
    }
    case '$convert': {
      const v = ev(a.input);
      if (v === null || v === undefined) return ev(a.onNull);
      try {
        return typeof v === 'string' ? parseDouble(v) : Number(v);
      } catch {
        return ev(a.onError);
      }
    }
    case '$regexMatch':
      return pcre(a.regex as string).test(ev(a.input) as string);
    case '$regexFind': {
      const m = pcre(a.regex as string).exec(ev(a.input) as string);
      return m === null ? null : { match: m[0], captures: m.slice(1).map((c) => c ?? null) };
    }
    case '$trunc':
      return Math.trunc(args()[0] as number);
    case '$abs':
      return Math.abs(args()[0] as number);
    case '$toLong': {
      const v = args()[0];
      return v instanceof Date ? v.getTime() : Math.trunc(v as number);
    }
    case '$toString':
      return String(args()[0]);
    case '$toInt': {
      const v = args()[0];
      if (v === null || v === undefined) return null;
      if (typeof v === 'string' && !/^[+-]?\d+$/.test(v)) throw new Error(`cannot convert ${v}`);
      return Number(v);
    }
    case '$substrCP': {
      const [s, start, length] = args() as [string, number, number];
      return [...s].slice(start, start + length).join('');
    }
    case '$concat':
      return (args() as string[]).join('');
    case '$dateFromParts': {
      const p = Object.fromEntries(Object.entries(a).map(([k, e]) => [k, ev(e) as number]));
      if ((p.year as number) < 1 || (p.year as number) > 9999) throw new Error('year out of range');
      return new Date(Date.UTC(p.year as number, (p.month as number) - 1, p.day, p.hour, p.minute, p.second, p.millisecond));
    }
    case '$dayOfMonth':
      return (args()[0] as Date).getUTCDate();
    case '$multiply':
      return (args() as number[]).reduce((x, y) => x * y, 1);
    case '$add':
      return (args() as number[]).reduce((x, y) => x + y, 0);
    case '$subtract': {
      const [x, y] = args() as [number, number];
      return x - y;
    }
    default:
      throw new Error(`operator ${op} is not modelled`);
  }
}

const literal = (v: unknown): unknown => (v === MISSING ? '$$REMOVE' : { $literal: v });

test('castExpr agrees with castValue', () => {
  const values: unknown[] = [
    ...[0, -0.5, 3.7, 10, -12, 2.5, 2 ** 40, 1e21, '10', '3.7', ' 1', '.5', '5.', '+5', '-0.5', '1e3', '1e999', 'abc', ''],
    ...[true, false, null, MISSING, { a: 1 }, [1]],
    ...['2025-01-01T00:00:00Z', '2025-01-01T01:00:00+01:00', '2024-12-31T23:30:00.000-01:00', '2025-01-01 00:00', 't'],
    ...['2024-02-29T12:00:00Z', '2025-02-29T12:00:00Z', '2025-01-01T24:00:00Z', '0099-01-01T00:00:00Z', '2025-13-01T00:00:00Z'],
    ...['2025-01-01T00:00:00.1Z', '2025-01-01T00:00:00.123456+0530', '2025-01-01T00:00:00-24:00', '2025-01-01T00:00:60Z'],
  ];
  for (const cast of ['text', 'int', 'float', 'boolean', 'timestamp'] as const satisfies readonly Cast[]) {
    for (const value of values) {
      const expected = value === MISSING ? null : castValue(cast, value);
      assert.deepEqual(evaluate(castExpr(cast, literal(value)), {}), expected, `${cast} of ${JSON.stringify(value) ?? 'missing'}`);
    }
  }
});

test('navigate follows properties into objects and indexes into arrays only', () => {
  const data = { s: 'x', arr: [1, { k: 'v' }], 'a.b': 1, '0': 'zero', items: [{ price: 5 }] };
  const cases: readonly (readonly [readonly PathSegment[], unknown])[] = [
    [['s'], 'x'],
    [['arr', 1, 'k'], 'v'],
    [['arr', 5], MISSING],
    [['arr', '0'], MISSING],
    [['0'], 'zero'],
    [[0], MISSING],
    [['a.b'], 1],
    [['items', 'price'], MISSING],
    [['s', 'length'], MISSING],
    [[], data],
  ];
  for (const [path, expected] of cases) {
    const reached = evaluate(navigate(literal(encodeJson(data)), path), {});
    assert.deepEqual(reached, encodeJson(expected), JSON.stringify(path));
  }
});
