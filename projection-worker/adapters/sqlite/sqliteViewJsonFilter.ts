import type { FieldType, JsonPathSegment, JsonTest } from '../../../contracts/index.ts';

type Param = (value: string | number | null) => string;

/** A JSON value reached in a row: SQL for its json_type() name and for its value (JSON text for containers). */
type Element = { readonly type: string; readonly value: string };

const ORDER = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** A SQL string literal (sqliteViewSql.ts has the same; this file is imported by it). */
const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** `*`-free segments as SQLite JSON path text without the leading `$`: `."a.b"[0]` (names as JSON strings). */
export function pathText(segments: readonly JsonPathSegment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!Number.isSafeInteger(segment) || segment < 0) throw new Error(`invalid array index ${segment} in path`);
      out += `[${segment}]`;
    } else if (typeof segment === 'string') {
      out += `.${JSON.stringify(segment)}`;
    } else {
      throw new Error('path segments must be strings or numbers');
    }
  }
  return out;
}

function lower(value: unknown, insensitive: boolean | undefined): unknown {
  return insensitive === true && typeof value === 'string' ? value.toLowerCase() : value;
}

/** Deep JSON equality of an element with `operand` (containers by their minified JSON text). */
function equals(e: Element, operand: unknown, insensitive: boolean | undefined, param: Param): string {
  if (operand === null) return `(${e.type} = 'null')`;
  if (typeof operand === 'boolean') return `(${e.type} = '${operand ? 'true' : 'false'}')`;
  if (typeof operand === 'number') {
    return Number.isFinite(operand) ? `(${e.type} IN ('integer', 'real') AND ${e.value} = ${param(operand)})` : '0';
  }
  if (typeof operand === 'string') {
    const value = insensitive === true ? `strata_lower(${e.value})` : e.value;
    return `(${e.type} = 'text' AND ${value} = ${param(lower(operand, insensitive) as string)})`;
  }
  if (typeof operand === 'object') {
    const type = Array.isArray(operand) ? 'array' : 'object';
    return `(${e.type} = '${type}' AND ${e.value} = json(${param(JSON.stringify(operand))}))`;
  }
  return '0';
}

/**
 * `in`: strings in one `IN` list and finite numbers in another (each behind its type test), other values as deep
 * equalities: one list is one index search (and a covering one where the index holds the type), where an `OR` of
 * equalities becomes SQLite's multi-index OR, which reads every match's row.
 */
function within(e: Element, values: readonly unknown[], insensitive: boolean | undefined, param: Param): string {
  const strings = values.filter((v): v is string => typeof v === 'string');
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const parts: string[] = [];
  if (strings.length > 0) {
    const value = insensitive === true ? `strata_lower(${e.value})` : e.value;
    parts.push(`(${e.type} = 'text' AND ${value} IN (${strings.map((v) => param(lower(v, insensitive) as string)).join(', ')}))`);
  }
  if (numbers.length > 0) parts.push(`(${e.type} IN ('integer', 'real') AND ${e.value} IN (${numbers.map((v) => param(v)).join(', ')}))`);
  for (const v of values) if (typeof v !== 'string' && typeof v !== 'number') parts.push(equals(e, v, insensitive, param));
  return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
}

function test(e: Element, t: JsonTest, arrayAt: (condition: (item: Element) => string) => string, param: Param): string {
  switch (t.op) {
    case 'equals':
      return equals(e, t.value, t.insensitive, param);
    case 'in':
      return within(e, t.values, t.insensitive, param);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const op = ORDER[t.op];
      if (typeof t.value === 'number' && Number.isFinite(t.value)) {
        return `(${e.type} IN ('integer', 'real') AND ${e.value} ${op} ${param(t.value)})`;
      }
      return typeof t.value === 'string' ? `(${e.type} = 'text' AND ${e.value} ${op} ${param(t.value)})` : '0';
    }
    case 'string_contains':
    case 'string_starts_with':
    case 'string_ends_with': {
      const operand = lower(t.value, t.insensitive) as string;
      const value = t.insensitive === true ? `strata_lower(${e.value})` : e.value;
      // An empty operand matches every string; substr(x, -0) would not.
      if (operand === '') return `(${e.type} = 'text')`;
      const p = param(operand);
      if (t.op === 'string_contains') return `(${e.type} = 'text' AND instr(${value}, ${p}) > 0)`;
      const part = t.op === 'string_starts_with' ? `substr(${value}, 1, length(${p}))` : `substr(${value}, -length(${p}))`;
      return `(${e.type} = 'text' AND ${part} = ${p})`;
    }
    case 'array_contains': {
      const wanted = Array.isArray(t.value) ? (t.value as readonly unknown[]) : [t.value];
      const each = wanted.map((w) => arrayAt((item) => equals(item, w, false, param)));
      return `(${e.type} = 'array'${each.map((c) => ` AND ${c}`).join('')})`;
    }
    default: {
      const unknownTest: never = t;
      throw new Error(`unknown json test ${JSON.stringify(unknownTest)}`);
    }
  }
}

/**
 * SQL for a `json` filter (generated-api.md §3.1). Each `*` becomes an EXISTS over json_each of the array reached
 * so far; json_each's `fullkey` (a path from the column's root) continues the path, so every level reads the
 * column itself. A path that does not resolve yields NULL types, which match nothing.
 */
export function jsonTestSql(
  column: string,
  type: FieldType,
  path: readonly JsonPathSegment[],
  t: JsonTest,
  param: Param,
  alias: () => string,
): string {
  if (type !== 'json') {
    if (path.length > 0) throw new Error('a path needs a json field');
    // A plain column behaves as the JSON scalar it holds.
    const typeSql =
      type === 'boolean' ? `(CASE ${column} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)` : `(CASE WHEN ${column} IS NOT NULL THEN '${type}' END)`;
    return test({ type: typeSql, value: column }, t, () => '0', param);
  }
  const runs: JsonPathSegment[][] = [[]];
  for (const segment of path) {
    if (segment === '*') runs.push([]);
    else (runs[runs.length - 1] as JsonPathSegment[]).push(segment);
  }

  // json_each also walks objects and scalars, hence the json_type guard.
  const arrayItems = (at: string, condition: (item: Element & { fullkey: string }) => string): string => {
    const w = alias();
    const item = { type: `${w}.type`, value: `${w}.value`, fullkey: `${w}.fullkey` };
    const isArray = `json_type(${column}, ${at}) = 'array'`;
    return `EXISTS (SELECT 1 FROM json_each(${column}, ${at}) AS ${w} WHERE ${isArray} AND ${condition(item)})`;
  };

  const level = (index: number, prefix: string | null): string => {
    const run = pathText(runs[index] as JsonPathSegment[]);
    // From the column's root the path is a literal, like the paths of sort and field indexes (ViewStore.ensureIndex):
    // SQLite uses an expression index only for a query expression of the same text (`json_extract("data",
    // '$."sku"')`). Paths are schema property names and array indexes, quoted as SQL strings.
    const at = prefix === null ? sqlString(`$${run}`) : run === '' ? prefix : `(${prefix} || ${param(run)})`;
    if (index === runs.length - 1) {
      const element = { type: `json_type(${column}, ${at})`, value: `json_extract(${column}, ${at})` };
      return test(element, t, (condition) => arrayItems(at, condition), param);
    }
    return arrayItems(at, (item) => level(index + 1, item.fullkey));
  };
  return level(0, null);
}
