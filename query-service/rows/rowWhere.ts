import { normalizeValue } from '../../contracts/index.ts';
import type { Filter, JsonTest, TableModel } from '../../contracts/index.ts';
import { and, not, or } from '../paging/filters.ts';
import { parsePathInput, resolveDataPath } from './rowPath.ts';
import { badInput, given, isRecord, type InputPath } from './rowQueryError.ts';
import { dateTimeOperand, listOperand, stringOperand } from './rowOperands.ts';

/** Limits of generated-api.md §3.1 / operations.md §7. */
export const MAX_WHERE_DEPTH = 10;
export const MAX_WHERE_CONDITIONS = 100;

export type WhereContext = {
  readonly model: TableModel;
  /** The rows of the revision whose `readonly` is true (all, none, or the versions shared with HEAD). */
  readonly readonlyRows: Filter;
};

type State = { readonly ctx: WhereContext; conditions: number };

const STRING_OPS = new Set(['equals', 'not', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte', 'contains', 'startsWith', 'endsWith', 'mode']);
const DATE_OPS = new Set(['equals', 'not', 'in', 'notIn', 'lt', 'lte', 'gt', 'gte']);
const BOOLEAN_OPS = new Set(['equals', 'not']);
const JSON_OPS = new Set([
  'path',
  'equals',
  'not',
  'in',
  'notIn',
  'gt',
  'gte',
  'lt',
  'lte',
  'string_contains',
  'string_starts_with',
  'string_ends_with',
  'array_contains',
  'mode',
]);
const COMPARE = { lt: 'lt', lte: 'lte', gt: 'gt', gte: 'gte' } as const;

/** `where` (RowWhereInput) -> a Filter over row versions (fields rowId, createdAt, updatedAt, data, fromSeq). */
export function parseWhere(input: unknown, ctx: WhereContext, at: InputPath = ['where']): Filter {
  if (!given(input)) return { kind: 'all' };
  return whereObject(input, { ctx, conditions: 0 }, at, 0);
}

function whereObject(input: unknown, state: State, at: InputPath, depth: number): Filter {
  if (!isRecord(input)) throw badInput(at, 'where must be an object');
  const parts: Filter[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!given(value)) continue;
    const here = [...at, key];
    switch (key) {
      case 'AND':
      case 'OR':
      case 'NOT': {
        if (depth + 1 > MAX_WHERE_DEPTH) throw badInput(here, `where nesting exceeds ${MAX_WHERE_DEPTH} levels`);
        const items = Array.isArray(value) ? value : [value];
        const filters = items.map((item, i) => whereObject(item, state, Array.isArray(value) ? [...here, i] : here, depth + 1));
        if (key === 'AND') parts.push(and(...filters));
        else if (key === 'OR') parts.push(or(...filters));
        else parts.push(not(or(...filters)));
        break;
      }
      case 'id':
        parts.push(stringFilter(value, state, here));
        break;
      case 'createdAt':
      case 'updatedAt':
        parts.push(dateTimeFilter(key, value, state, here));
        break;
      case 'readonly':
        parts.push(booleanFilter(value, state, here));
        break;
      case 'data':
        parts.push(jsonFilter(value, state, here));
        break;
      default:
        throw badInput(here, `unknown where field "${key}"`);
    }
  }
  return and(...parts);
}

/** Checks the keys of one filter object and counts its operators against the condition limit. */
function operatorsOf(input: unknown, allowed: ReadonlySet<string>, state: State, at: InputPath): [string, unknown][] {
  if (!isRecord(input)) throw badInput(at, 'filter must be an object');
  const entries = Object.entries(input).filter(([, v]) => given(v));
  for (const [key] of entries) {
    if (!allowed.has(key)) throw badInput([...at, key], `unknown filter operator "${key}"`);
    if (key === 'mode' || key === 'path') continue;
    state.conditions += 1;
    if (state.conditions > MAX_WHERE_CONDITIONS) throw badInput([...at, key], `where has more than ${MAX_WHERE_CONDITIONS} conditions`);
  }
  return entries;
}

function insensitiveMode(input: Readonly<Record<string, unknown>>, at: InputPath): boolean {
  const mode = input.mode;
  if (!given(mode) || mode === 'default') return false;
  if (mode === 'insensitive') return true;
  throw badInput([...at, 'mode'], 'mode must be "default" or "insensitive"');
}

function stringFilter(input: unknown, state: State, at: InputPath): Filter {
  const entries = operatorsOf(input, STRING_OPS, state, at);
  const insensitive = insensitiveMode(input as Record<string, unknown>, at);
  const ref = { field: 'rowId' };
  const test = (t: JsonTest): Filter => ({ kind: 'json', field: 'rowId', path: [], test: t });
  const equals = (value: string): Filter => (insensitive ? test({ op: 'equals', value, insensitive }) : { kind: 'compare', ref, op: 'eq', value });
  const inList = (values: string[]): Filter => (insensitive ? test({ op: 'in', values, insensitive }) : { kind: 'in', ref, values });
  const parts: Filter[] = [];
  for (const [op, value] of entries) {
    const here = [...at, op];
    switch (op) {
      case 'equals':
        parts.push(equals(stringOperand(value, here)));
        break;
      case 'not':
        parts.push(not(equals(stringOperand(value, here))));
        break;
      case 'in':
      case 'notIn': {
        const values = listOperand(value, here).map((v, i) => stringOperand(v, [...here, i]));
        parts.push(op === 'in' ? inList(values) : not(inList(values)));
        break;
      }
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte':
        parts.push({ kind: 'compare', ref, op: COMPARE[op], value: stringOperand(value, here) });
        break;
      case 'contains':
        parts.push(test({ op: 'string_contains', value: stringOperand(value, here), insensitive }));
        break;
      case 'startsWith':
        parts.push(test({ op: 'string_starts_with', value: stringOperand(value, here), insensitive }));
        break;
      case 'endsWith':
        parts.push(test({ op: 'string_ends_with', value: stringOperand(value, here), insensitive }));
        break;
      default:
        break;
    }
  }
  return and(...parts);
}

function dateTimeFilter(field: 'createdAt' | 'updatedAt', input: unknown, state: State, at: InputPath): Filter {
  const ref = { field };
  const parts: Filter[] = [];
  for (const [op, value] of operatorsOf(input, DATE_OPS, state, at)) {
    const here = [...at, op];
    switch (op) {
      case 'equals':
      case 'not': {
        const equal: Filter = { kind: 'compare', ref, op: 'eq', value: dateTimeOperand(value, here) };
        parts.push(op === 'equals' ? equal : not(equal));
        break;
      }
      case 'in':
      case 'notIn': {
        const values = listOperand(value, here).map((v, i) => dateTimeOperand(v, [...here, i]));
        const inList: Filter = { kind: 'in', ref, values };
        parts.push(op === 'in' ? inList : not(inList));
        break;
      }
      default:
        parts.push({ kind: 'compare', ref, op: COMPARE[op as keyof typeof COMPARE], value: dateTimeOperand(value, here) });
    }
  }
  return and(...parts);
}

function booleanFilter(input: unknown, state: State, at: InputPath): Filter {
  const parts: Filter[] = [];
  for (const [op, value] of operatorsOf(input, BOOLEAN_OPS, state, at)) {
    if (typeof value !== 'boolean') throw badInput([...at, op], 'must be a boolean');
    const wantReadonly = op === 'equals' ? value : !value;
    parts.push(wantReadonly ? state.ctx.readonlyRows : not(state.ctx.readonlyRows));
  }
  return and(...parts);
}

function jsonFilter(input: unknown, state: State, at: InputPath): Filter {
  const entries = operatorsOf(input, JSON_OPS, state, at);
  const record = input as Record<string, unknown>;
  if (!given(record.path)) throw badInput([...at, 'path'], 'path is required');
  const raw = parsePathInput(record.path, [...at, 'path']);
  const { segments, node } = resolveDataPath(state.ctx.model, raw, [...at, 'path'], true);
  const insensitive = insensitiveMode(record, at);
  const test = (t: JsonTest): Filter => ({ kind: 'json', field: 'data', path: segments, test: t });
  const parts: Filter[] = [];
  for (const [op, value] of entries) {
    const here = [...at, op];
    switch (op) {
      case 'equals':
      case 'not': {
        const equal = test({ op: 'equals', value: normalizeValue(node, value), insensitive });
        parts.push(op === 'equals' ? equal : not(equal));
        break;
      }
      case 'in':
      case 'notIn': {
        const values = listOperand(value, here).map((v) => normalizeValue(node, v));
        const inList = test({ op: 'in', values, insensitive });
        parts.push(op === 'in' ? inList : not(inList));
        break;
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (typeof value !== 'number' && typeof value !== 'string') throw badInput(here, 'must be a number or a string');
        parts.push(test({ op, value }));
        break;
      case 'string_contains':
      case 'string_starts_with':
      case 'string_ends_with':
        parts.push(test({ op, value: stringOperand(value, here), insensitive }));
        break;
      case 'array_contains': {
        const items = node.kind === 'array' ? node.items : node;
        const operand = Array.isArray(value) ? value.map((v: unknown) => normalizeValue(items, v)) : normalizeValue(items, value);
        parts.push(test({ op: 'array_contains', value: operand }));
        break;
      }
      default:
        break;
    }
  }
  if (parts.length === 0) throw badInput(at, 'a data filter needs at least one operator');
  return and(...parts);
}
