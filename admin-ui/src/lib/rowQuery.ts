import type { LeafColumn, LeafKind } from './schemaModel.ts';

/** Operators of `JsonFilter` (generated-api.md §3) offered per field kind. */
export const OPERATORS: Readonly<Record<LeafKind, readonly { readonly op: string; readonly label: string }[]>> = {
  string: [
    { op: 'equals', label: 'equals' },
    { op: 'not', label: 'is not' },
    { op: 'string_contains', label: 'contains' },
    { op: 'string_starts_with', label: 'starts with' },
    { op: 'string_ends_with', label: 'ends with' },
    { op: 'gt', label: '>' },
    { op: 'gte', label: '≥' },
    { op: 'lt', label: '<' },
    { op: 'lte', label: '≤' },
  ],
  number: [
    { op: 'equals', label: '=' },
    { op: 'not', label: '≠' },
    { op: 'gt', label: '>' },
    { op: 'gte', label: '≥' },
    { op: 'lt', label: '<' },
    { op: 'lte', label: '≤' },
  ],
  boolean: [
    { op: 'equals', label: 'is' },
    { op: 'not', label: 'is not' },
  ],
};

export type RowFilter = { readonly column: LeafColumn; readonly op: string; readonly value: string; readonly insensitive: boolean };

/** `where` of a rows query for one filter, or an error text when the value does not fit the field. */
export function whereOf(filter: RowFilter): { where: Record<string, unknown> } | { error: string } {
  const { column, op } = filter;
  let value: unknown = filter.value;
  if (column.kind === 'number') {
    const n = Number(filter.value.trim());
    if (filter.value.trim() === '' || !Number.isFinite(n)) return { error: `${column.label} is a number: enter a number to compare with.` };
    value = n;
  } else if (column.kind === 'boolean') {
    value = filter.value === 'true';
  }
  const insensitive = column.kind === 'string' && filter.insensitive ? { mode: 'insensitive' } : {};
  return { where: { data: { path: [...column.path], [op]: value, ...insensitive } } };
}

export type RowSort = { readonly key: string; readonly direction: 'asc' | 'desc' };

/** The sort key of a data column (system fields use their own name: `id`, `createdAt`, `updatedAt`). */
export function dataSortKey(column: LeafColumn): string {
  return `data:${column.label}`;
}

/** `orderBy` of a rows query: a system field or a data column. */
export function orderByOf(sort: RowSort | null, columns: readonly LeafColumn[]): Record<string, unknown>[] | undefined {
  if (!sort) return undefined;
  if (sort.key === 'id' || sort.key === 'createdAt' || sort.key === 'updatedAt') return [{ [sort.key]: sort.direction }];
  const column = columns.find((c) => dataSortKey(c) === sort.key);
  if (!column) return undefined;
  return [{ data: { path: [...column.path], direction: sort.direction, type: column.sortType } }];
}

/** What the rows grid shows, as its address holds it: the filter, the sort and the cursors of the pages passed. */
export type RowView = { readonly filter: RowFilter | null; readonly sort: RowSort | null; readonly cursors: readonly string[] };

const SYSTEM_SORT_KEYS = new Set(['id', 'createdAt', 'updatedAt']);

/**
 * The grid's view from the address (`?field=views&op=gte&value=5&sort=data:views&dir=desc&after=…`): unknown
 * fields, operators and sort keys are dropped, so an old bookmark still opens. `after` repeats, one per page
 * passed, so Previous goes back exactly and a bookmark reopens the same page.
 */
export function rowViewOf(search: URLSearchParams, columns: readonly LeafColumn[]): RowView {
  const column = columns.find((c) => c.label === search.get('field'));
  let filter: RowFilter | null = null;
  if (column) {
    const wanted = search.get('op') ?? 'equals';
    const op = OPERATORS[column.kind].some((o) => o.op === wanted) ? wanted : 'equals';
    filter = { column, op, value: search.get('value') ?? '', insensitive: column.kind === 'string' && search.get('case') === 'insensitive' };
  }
  const key = search.get('sort');
  const known = key !== null && (SYSTEM_SORT_KEYS.has(key) || columns.some((c) => dataSortKey(c) === key));
  const sort = known ? { key, direction: search.get('dir') === 'desc' ? ('desc' as const) : ('asc' as const) } : null;
  return { filter, sort, cursors: search.getAll('after').filter(Boolean) };
}

/** The address search string of a view ('' for the default view). */
export function rowViewSearch(view: RowView): string {
  const search = new URLSearchParams();
  if (view.filter) {
    search.set('field', view.filter.column.label);
    search.set('op', view.filter.op);
    search.set('value', view.filter.value);
    if (view.filter.insensitive) search.set('case', 'insensitive');
  }
  if (view.sort) {
    search.set('sort', view.sort.key);
    search.set('dir', view.sort.direction);
  }
  for (const cursor of view.cursors) search.append('after', cursor);
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
