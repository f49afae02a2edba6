import { ReferencedRowsDocument } from '../api/generated/operations.ts';
import { useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { labelField } from '../lib/formValue.ts';
import { valueAt, type LeafColumn } from '../lib/schemaModel.ts';

/** A referenced row as a foreign-key cell shows it: its id and the text of its table's first text field. */
export type ReferencedRow = { readonly id: string; readonly label: string | null };

/** Referenced rows by table id, then by row id. */
export type ReferencedRows = ReadonlyMap<string, ReadonlyMap<string, ReferencedRow>>;

/** The ids each referenced table is asked for: the foreign-key values of one page, per table, sorted. */
export function referencedIds(columns: readonly LeafColumn[], rows: readonly { readonly data: unknown }[]): Map<string, string[]> {
  const wanted = new Map<string, Set<string>>();
  for (const column of columns) {
    if (column.foreignKey === undefined) continue;
    for (const row of rows) {
      const value = valueAt(row.data, column.path);
      if (typeof value !== 'string' || value === '') continue;
      const ids = wanted.get(column.foreignKey) ?? new Set<string>();
      ids.add(value);
      wanted.set(column.foreignKey, ids);
    }
  }
  return new Map([...wanted].sort(([a], [b]) => (a < b ? -1 : 1)).map(([table, ids]) => [table, [...ids].sort()]));
}

/**
 * The rows one page of the grid refers to, looked up in one request for the whole page (a batch of one
 * `table` + `rows(where: {id: {in: …}})` per referenced table), never one request per cell. Best effort: when the
 * lookup fails the cells show the bare ids.
 */
export function useReferencedRows(revisionId: string, columns: readonly LeafColumn[], rows: readonly { readonly data: unknown }[]): ReferencedRows {
  const api = useApi();
  const wanted = referencedIds(columns, rows);
  const tables = [...wanted.keys()];
  const lookup = useLoaded(
    [...queryKeys.revision(revisionId), 'referenced', Object.fromEntries(wanted)],
    async (): Promise<ReferencedRows> => {
      const answers = await api.batch(
        ReferencedRowsDocument,
        tables.map((tableId) => {
          const ids = wanted.get(tableId) ?? [];
          return { table: { revisionId, tableId }, rows: { revisionId, tableId, first: ids.length, where: { id: { in: ids } } } };
        }),
      );
      return new Map(
        answers.map((answer, index) => {
          const field = labelField(answer.table.schema);
          const found = answer.rows.edges.map(({ node }) => {
            const text = field === null ? null : valueAt(node.data, [field]);
            return [node.id, { id: node.id, label: typeof text === 'string' && text !== '' ? text : null }] as const;
          });
          return [tables[index] as string, new Map(found)];
        }),
      );
    },
    { enabled: tables.length > 0 },
  );
  return lookup.data ?? new Map();
}
