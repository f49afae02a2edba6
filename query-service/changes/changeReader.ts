import type { Filter, VersionLayer, ViewDoc, ViewStore } from '../../contracts/index.ts';
import type { Segment } from './revisionAncestry.ts';
import type { RowMark } from './rowPairing.ts';
import { and, eq, within } from '../paging/filters.ts';
import { rowVersions } from '../readers/rowReader.ts';

const ROWS = 'rows';
/** Ids per `in` filter (well under SQLite's parameter limit). */
const IDS_PER_FIND = 500;

const range = (field: string, segment: Segment): Filter[] => [
  { kind: 'compare', ref: { field }, op: 'gt', value: segment.after },
  { kind: 'compare', ref: { field }, op: 'lte', value: segment.upTo },
];

function rowMark(doc: ViewDoc): RowMark & { readonly tableKey: string; readonly actor: string | null } {
  return {
    seq: doc.seq as number,
    position: doc.position as string,
    kind: doc.kind as RowMark['kind'],
    rowId: doc.rowId as string,
    previousRowId: (doc.previousRowId as string | null) ?? null,
    tableKey: doc.tableKey as string,
    actor: (doc.actor as string | null) ?? null,
  };
}

export type StoredRowMark = ReturnType<typeof rowMark>;

/**
 * Reads of the `rows` projection for revision diffs and row history (changes.md §1-§2). Every read goes through an
 * index, so its cost follows the number of changes, never the size of a table or of the log:
 * - versions started/ended in a segment: `(branchId, fromSeq)` and `(branchId, toSeq)`;
 * - marks of a segment or of one row: the `row_marks` key `(branchId, seq, tableKey, rowId, position)`;
 * - versions of given ids visible in a revision (a layered read: one arm per layer), and one row's versions newest
 *   first: the `rows` key `(branchId, tableKey, rowId, fromSeq)`; a table's versions: the `schemas.tables` key
 *   `(branchId, tableKey, fromSeq)`.
 */
export function createChangeReader(store: ViewStore) {
  return {
    /** Row versions that start or end in the segment (the rows it changed), of every table. */
    async changedVersions(segment: Segment): Promise<ViewDoc[]> {
      const branch = eq('branchId', segment.branchId);
      const [started, ended] = await Promise.all([
        store.find(ROWS, ROWS, { filter: and(branch, ...range('fromSeq', segment)) }),
        store.find(ROWS, ROWS, { filter: and(branch, ...range('toSeq', segment)) }),
      ]);
      return [...started, ...ended];
    },

    /** Renames and deletions in the segment's revisions, in the order they were applied. */
    async marks(segment: Segment): Promise<StoredRowMark[]> {
      const docs = await store.find(ROWS, 'row_marks', {
        filter: and(eq('branchId', segment.branchId), ...range('seq', segment)),
        orderBy: [
          { ref: { field: 'seq' }, direction: 'asc' },
          { ref: { field: 'position' }, direction: 'asc' },
        ],
      });
      return docs.map(rowMark);
    },

    /** Marks of one row id in one revision of a branch, in the order they were applied. */
    async marksOf(branchId: string, seq: number, tableKey: string, rowId: string): Promise<StoredRowMark[]> {
      const docs = await store.find(ROWS, 'row_marks', {
        filter: and(eq('branchId', branchId), eq('seq', seq), eq('tableKey', tableKey), eq('rowId', rowId)),
        orderBy: [{ ref: { field: 'position' }, direction: 'asc' }],
      });
      return docs.map(rowMark);
    },

    /** The versions of `rowIds` of one table a revision sees (through its layers), by row id. */
    async visibleRows(
      scope: { readonly layers: readonly VersionLayer[] },
      tableKey: string,
      rowIds: readonly string[],
    ): Promise<Map<string, ViewDoc>> {
      const out = new Map<string, ViewDoc>();
      for (let i = 0; i < rowIds.length; i += IDS_PER_FIND) {
        const ids = rowIds.slice(i, i + IDS_PER_FIND);
        const docs = await store.find(ROWS, ROWS, { filter: and(eq('tableKey', tableKey), within('rowId', ids)), versions: rowVersions(scope) });
        for (const doc of docs) out.set(doc.rowId as string, doc);
      }
      return out;
    },

    /**
     * Every row of one table a revision sees, by row id: the rows of a table that exists on one side of a diff only
     * (a branch that deletes a table it inherits wrote no version of its rows, so its changes cannot name them).
     */
    async allRows(scope: { readonly layers: readonly VersionLayer[] }, tableKey: string): Promise<Map<string, ViewDoc>> {
      const docs = await store.find(ROWS, ROWS, { filter: eq('tableKey', tableKey), versions: rowVersions(scope) });
      return new Map(docs.map((doc) => [doc.rowId as string, doc]));
    },

    /** Every version of one table (stable key) on a branch (a table has few: one per revision that changed it). */
    tableVersions(branchId: string, tableKey: string): Promise<ViewDoc[]> {
      return store.find('schemas', 'tables', { filter: and(eq('branchId', branchId), eq('tableKey', tableKey)) });
    },

    /** Versions of one row of a branch starting at or before `maxFromSeq`, newest first. */
    rowVersions(branchId: string, tableKey: string, rowId: string, maxFromSeq: number, limit: number): Promise<ViewDoc[]> {
      return store.find(ROWS, ROWS, {
        filter: and(eq('branchId', branchId), eq('tableKey', tableKey), eq('rowId', rowId), {
          kind: 'compare',
          ref: { field: 'fromSeq' },
          op: 'lte',
          value: maxFromSeq,
        }),
        orderBy: [{ ref: { field: 'fromSeq' }, direction: 'desc' }],
        limit,
      });
    },
  };
}

export type ChangeReader = ReturnType<typeof createChangeReader>;
