import { useMemo, useState } from 'react';
import { DeleteRowsDocument, RowsDocument } from '../api/generated/operations.ts';
import type { Table } from '../api/types.ts';
import { projectContentKeys, useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link, useLocation, useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import type { CursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { dataSortKey, orderByOf, rowViewOf, rowViewSearch, whereOf, type RowSort, type RowView } from '../lib/rowQuery.ts';
import { cellText, leafColumns, valueAt, type LeafColumn } from '../lib/schemaModel.ts';
import { CreateRowForm } from './CreateRowForm.tsx';
import { RowFilterForm } from './RowFilterForm.tsx';
import { revisionPath, type RevisionAddress } from './revisionContext.ts';
import { useReferencedRows, type ReferencedRows } from './useReferencedRows.ts';

const PAGE_SIZE = 25;
const MAX_DATA_COLUMNS = 6;

type RowsSectionProps = {
  readonly address: RevisionAddress;
  readonly revisionId: string;
  readonly table: Table;
  readonly editable: boolean;
};

/**
 * The rows grid: cursor paging with totalCount, a filter on one data path, sorting by a column — all three kept in
 * the address, so a view can be bookmarked and Back/Forward step through views; foreign-key cells show the row they
 * refer to; on the draft, rows are selected and deleted together.
 */
export function RowsSection({ address, revisionId, table, editable }: RowsSectionProps) {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const { path, search } = useLocation();
  const columns = useMemo(() => leafColumns(table.schema), [table.schema]);
  const shownColumns = columns.slice(0, MAX_DATA_COLUMNS);
  const view = rowViewOf(search, columns);
  const { filter, sort } = view;
  const show = (next: RowView): void => navigation.navigate(`${path}${rowViewSearch(next)}`, { keepScroll: true });
  const where = filter ? whereOf(filter) : null;
  const orderBy = orderByOf(sort, columns);
  const pager: CursorPager = {
    after: view.cursors.at(-1),
    page: view.cursors.length,
    next: (cursor) => show({ ...view, cursors: [...view.cursors, cursor] }),
    previous: () => show({ ...view, cursors: view.cursors.slice(0, -1) }),
  };
  const rows = useOperation(
    queryKeys.revision(revisionId),
    RowsDocument,
    {
      data: {
        revisionId,
        tableId: table.id,
        first: PAGE_SIZE,
        after: pager.after ?? null,
        ...(where && 'where' in where ? { where: where.where } : {}),
        ...(orderBy ? { orderBy } : {}),
      },
    },
    { select: (d) => d.rows, enabled: !(where && 'error' in where) },
  );
  const pageRows = useMemo(() => rows.data?.edges.map(({ node }) => node) ?? [], [rows.data]);
  const referenced = useReferencedRows(revisionId, shownColumns, pageRows);
  const selection = useSelection(`${revisionId}|${table.id}|${search.toString()}`);
  const action = useAction();
  const [deleted, setDeleted] = useState<number | null>(null);
  const selectedHere = pageRows.filter((row) => selection.has(row.id));

  const deleteSelected = async (): Promise<void> => {
    setDeleted(null);
    const rowIds = selectedHere.map((row) => row.id);
    const done = await action.run(() => api.request(DeleteRowsDocument, { data: { revisionId, tableId: table.id, rowIds } }));
    if (done) {
      await invalidate(...projectContentKeys(address.org, address.project));
      selection.clear();
      setDeleted(done.deleteRows.count);
    }
  };
  const sortBy = (next: RowSort | null): void => show({ ...view, sort: next, cursors: [] });

  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title">Rows</h2>
      <RowFilterForm
        columns={columns}
        filter={filter}
        onApply={(next) => show({ ...view, filter: next, cursors: [] })}
        error={where && 'error' in where ? where.error : null}
      />
      {sort && (
        <p className="meta">
          Sorted by {sort.key.replace(/^data:/, '')} ({sort.direction === 'asc' ? 'ascending' : 'descending'}){' '}
          <button type="button" className="link-button" onClick={() => sortBy(null)}>
            default order
          </button>
        </p>
      )}
      {editable && (
        <div className="toolbar selection-bar" role="group" aria-label="Selected rows">
          <span role="status">{selectedHere.length === 0 ? 'No rows selected' : `${selectedHere.length} selected`}</span>
          <ConfirmButton
            label="Delete selected rows…"
            title={`Delete ${selectedHere.length} ${selectedHere.length === 1 ? 'row' : 'rows'} of ${table.id}?`}
            confirmLabel={`Delete ${selectedHere.length} ${selectedHere.length === 1 ? 'row' : 'rows'}`}
            danger
            disabled={selectedHere.length === 0 || action.busy}
            onConfirm={deleteSelected}
          >
            <p>These rows are removed from the draft in one step (HEAD keeps them until the next commit):</p>
            <ul className="id-list">
              {selectedHere.map((row) => (
                <li key={row.id}>
                  <code>{row.id}</code>
                </li>
              ))}
            </ul>
            <p>If another row still refers to one of them, nothing is deleted.</p>
          </ConfirmButton>
        </div>
      )}
      {deleted !== null && (
        <Notice kind="success">
          Deleted {deleted} {deleted === 1 ? 'row' : 'rows'}.
        </Notice>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {where && 'error' in where ? null : (
        <Async value={rows} what="rows">
          {(connection) => (
            <PagedTable
              connection={connection}
              empty={filter ? 'No rows match the filter.' : editable ? 'No rows yet. Add one below.' : 'This table has no rows.'}
              caption={<>Rows of {table.id}</>}
              head={
                <>
                  {editable && (
                    <th scope="col" className="select-cell">
                      <input
                        type="checkbox"
                        aria-label="Select all rows on this page"
                        checked={pageRows.length > 0 && selectedHere.length === pageRows.length}
                        onChange={(event) =>
                          selection.set(
                            pageRows.map((row) => row.id),
                            event.target.checked,
                          )
                        }
                      />
                    </th>
                  )}
                  <SortHeader sortKey="id" label="id" sort={sort} onSort={sortBy} />
                  {shownColumns.map((column) => (
                    <SortHeader key={column.label} sortKey={dataSortKey(column)} label={column.label} sort={sort} onSort={sortBy} />
                  ))}
                  <SortHeader sortKey="updatedAt" label="updated" sort={sort} onSort={sortBy} />
                  {editable && <th scope="col">State</th>}
                </>
              }
              rowProps={(node) => (selection.has(node.id) ? { className: 'selected' } : {})}
              row={(node) => (
                <>
                  {editable && (
                    <td className="select-cell">
                      <input
                        type="checkbox"
                        aria-label={`Select row ${node.id}`}
                        checked={selection.has(node.id)}
                        onChange={(event) => selection.set([node.id], event.target.checked)}
                      />
                    </td>
                  )}
                  <td>
                    <Link to={revisionPath(address, 'table', table.id, 'row', node.id)}>{node.id}</Link>
                  </td>
                  {shownColumns.map((column) => (
                    <td key={column.label}>
                      <Cell address={address} column={column} value={valueAt(node.data, column.path)} referenced={referenced} />
                    </td>
                  ))}
                  <td>
                    <Time value={node.updatedAt} />
                  </td>
                  {editable && <td>{node.readonly ? <span className="hint">unchanged</span> : <span className="badge badge-warn">changed</span>}</td>}
                </>
              )}
              pager={pager}
              pageSize={PAGE_SIZE}
              noun="rows"
              scrollLabel="Rows table, scrollable"
            />
          )}
        </Async>
      )}
      {editable && (
        <CreateRowForm revisionId={revisionId} table={table} onCreated={() => invalidate(...projectContentKeys(address.org, address.project))} />
      )}
    </section>
  );
}

type CellProps = { readonly address: RevisionAddress; readonly column: LeafColumn; readonly value: unknown; readonly referenced: ReferencedRows };

/** A cell's value; a foreign key as a link to the row it refers to, with that row's first text field. */
function Cell({ address, column, value, referenced }: CellProps) {
  if (column.foreignKey === undefined || typeof value !== 'string' || value === '') return <>{cellText(value)}</>;
  const row = referenced.get(column.foreignKey)?.get(value);
  return (
    <span className="fk-cell">
      <Link to={revisionPath(address, 'table', column.foreignKey, 'row', value)} className="option-id">
        {value}
      </Link>
      {row?.label && <span className="hint"> {cellText(row.label, 60)}</span>}
    </span>
  );
}

type Selection = { has(id: string): boolean; set(ids: readonly string[], selected: boolean): void; clear(): void };

/** Row ids ticked in the grid; a new page, filter or sort (a new `scope`) starts with none. */
function useSelection(scope: string): Selection {
  const [state, setState] = useState<{ scope: string; ids: ReadonlySet<string> }>({ scope, ids: new Set() });
  const ids = state.scope === scope ? state.ids : new Set<string>();
  return {
    has: (id) => ids.has(id),
    set(changed, selected) {
      const next = new Set(ids);
      for (const id of changed) {
        if (selected) next.add(id);
        else next.delete(id);
      }
      setState({ scope, ids: next });
    },
    clear: () => setState({ scope, ids: new Set() }),
  };
}

type SortHeaderProps = { readonly sortKey: string; readonly label: string; readonly sort: RowSort | null; readonly onSort: (sort: RowSort) => void };

/** A column header that sorts by its column: ascending first, then descending. */
function SortHeader({ sortKey, label, sort, onSort }: SortHeaderProps) {
  const active = sort?.key === sortKey ? sort.direction : null;
  return (
    <th scope="col" aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}>
      <button type="button" className="sort-button" onClick={() => onSort({ key: sortKey, direction: active === 'asc' ? 'desc' : 'asc' })}>
        {label}
        <span aria-hidden="true">{active === 'asc' ? ' ▲' : active === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
