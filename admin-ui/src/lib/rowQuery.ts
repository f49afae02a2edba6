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
