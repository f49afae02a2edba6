import type { ReactNode } from 'react';
import type { RevisionChanges, TableChange } from '../api/changeTypes.ts';
import { RevisionChangesDocument } from '../api/generated/operations.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link } from '../app/router.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { Async, Empty } from '../components/Status.tsx';
import { RowChangesSection, type RowLinks } from './RowChangesSection.tsx';

type ChangesViewProps = {
  /** The revision whose changes are shown (the "after" side). */
  readonly revisionId: string;
  /** The base ("before" side); the revision's default base (changes.md §1) when absent. */
  readonly compareWith?: string;
  /** The table whose row changes are open, from the URL (`?table=`). */
  readonly selectedTable: string | null;
  /** The app path that opens a table's row changes. */
  readonly tableLink: (tableId: string) => string;
  readonly rowLinks: RowLinks;
  /** Tells the screen which base the server used (for its heading). */
  readonly children?: (changes: RevisionChanges) => ReactNode;
};

const TABLE_CHANGE_LABELS: Readonly<Record<TableChange['change'], string>> = {
  ADDED: 'added',
  REMOVED: 'removed',
  RENAMED: 'renamed',
  MODIFIED: 'modified',
};

/**
 * The changes between two revisions (admin-ui.md §3.1 Review changes): every changed table with its row counts,
 * then the changed rows of the selected table with field-level before/after. Shared by the draft review and the
 * compare view.
 */
export function ChangesView({ revisionId, compareWith, selectedTable, tableLink, rowLinks, children }: ChangesViewProps) {
  const changes = useOperation(
    queryKeys.revision(revisionId),
    RevisionChangesDocument,
    { data: { revisionId, ...(compareWith ? { compareWith } : {}) } },
    { select: (d): RevisionChanges => d.revisionChanges },
  );
  return (
    <Async value={changes} what="the changes">
      {(data) => {
        const selected = data.tables.find((table) => table.tableId === selectedTable) ?? null;
        return (
          <>
            {children?.(data)}
            <section aria-labelledby="changed-tables-title">
              <h2 id="changed-tables-title">Changed tables</h2>
              {data.tables.length === 0 ? (
                <Empty>No changes: both revisions hold the same tables and rows.</Empty>
              ) : (
                <TableChangesGrid changes={data} selectedTable={selected?.tableId ?? null} tableLink={tableLink} />
              )}
            </section>
            {selected && (
              <RowChangesSection key={selected.tableId} revisionId={revisionId} compareWith={data.compareWith} table={selected} rowLinks={rowLinks} />
            )}
            {selectedTable !== null && !selected && data.tables.length > 0 && <Empty>Table {selectedTable} has no changes here.</Empty>}
          </>
        );
      }}
    </Async>
  );
}

type GridProps = {
  readonly changes: Pick<RevisionChanges, 'tables' | 'totalRowChanges'>;
  readonly selectedTable: string | null;
  /** Where a table's row changes open; without it (a merge preview has counts only) the table id is plain text. */
  readonly tableLink?: (tableId: string) => string;
  readonly caption?: string;
};

/** Every changed table with its row change counts (also a merge's or a restore's preview). */
export function TableChangesGrid({ changes, selectedTable, tableLink, caption = 'Changed tables with their row change counts' }: GridProps) {
  const tableCount = changes.tables.length;
  return (
    <>
      <p className="meta" role="status">
        {tableCount} {tableCount === 1 ? 'table' : 'tables'} changed · {changes.totalRowChanges} row{' '}
        {changes.totalRowChanges === 1 ? 'change' : 'changes'}
      </p>
      <GridTable
        items={changes.tables}
        rowKey={(table) => table.tableId}
        rowProps={(table) => (table.tableId === selectedTable ? { className: 'current' } : {})}
        caption={caption}
        className="changes-grid"
        scrollLabel="Changed tables, scrollable"
        head={
          <>
            <th scope="col">Table</th>
            <th scope="col">Change</th>
            <th scope="col">Added</th>
            <th scope="col">Updated</th>
            <th scope="col">Removed</th>
            <th scope="col">Renamed</th>
            <th scope="col">Rows</th>
          </>
        }
        row={(table) => (
          <>
            <th scope="row">
              {tableLink ? (
                <Link
                  to={tableLink(table.tableId)}
                  aria-current={table.tableId === selectedTable ? 'true' : undefined}
                  aria-label={`Row changes of ${table.tableId}`}
                >
                  {table.tableId}
                </Link>
              ) : (
                table.tableId
              )}
              {table.previousTableId && <span className="hint"> (was {table.previousTableId})</span>}
            </th>
            <td>
              <span className={`badge change-${table.change.toLowerCase()}`}>{TABLE_CHANGE_LABELS[table.change]}</span>
              {table.schemaChanged && <span className="badge">schema changed</span>}
            </td>
            <td>{table.rowChanges.added}</td>
            <td>{table.rowChanges.updated}</td>
            <td>{table.rowChanges.removed}</td>
            <td>{table.rowChanges.renamed}</td>
            <td>{table.rowChanges.total}</td>
          </>
        )}
      />
    </>
  );
}
