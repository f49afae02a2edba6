import { useMemo, useState } from 'react';
import { PAGE_INFO } from '../api/fragments.ts';
import type { Connection, Row, Table } from '../api/types.ts';
import { Link } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useLoad } from '../app/useLoad.ts';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { dataSortKey, orderByOf, type RowFilter, type RowSort, whereOf } from '../lib/rowQuery.ts';
import { cellText, leafColumns, valueAt } from '../lib/schemaModel.ts';
import { CreateRowForm } from './CreateRowForm.tsx';
import { RowFilterForm } from './RowFilterForm.tsx';
import { revisionPath, type RevisionAddress } from './revisionContext.ts';

const PAGE_SIZE = 25;
const MAX_DATA_COLUMNS = 6;
const ROWS = `query Rows($data: GetRowsInput!) { rows(data: $data) { ${PAGE_INFO} edges { node { id readonly createdAt updatedAt data } } } }`;

type RowsSectionProps = {
  readonly address: RevisionAddress;
  readonly revisionId: string;
  readonly table: Table;
  readonly editable: boolean;
  readonly version: number;
  readonly onChanged: () => void;
};

/** The rows grid: cursor paging with totalCount, a filter on one data path, sorting by a column. */
export function RowsSection({ address, revisionId, table, editable, version, onChanged }: RowsSectionProps) {
  const api = useApi();
  const columns = useMemo(() => leafColumns(table.schema), [table.schema]);
  const shownColumns = columns.slice(0, MAX_DATA_COLUMNS);
  const [filter, setFilter] = useState<RowFilter | null>(null);
  const [sort, setSort] = useState<RowSort | null>(null);
  const where = filter ? whereOf(filter) : null;
  const query = {
    ...(where && 'where' in where ? { where: where.where } : {}),
    ...(orderByOf(sort, columns) ? { orderBy: orderByOf(sort, columns) } : {}),
  };
  const pager = useCursorPager(JSON.stringify(query));
  const [rows, reload] = useLoad(
    () =>
      api
        .graphql<{ rows: Connection<Row> }>(ROWS, { data: { revisionId, tableId: table.id, first: PAGE_SIZE, after: pager.after, ...query } })
        .then((d) => d.rows),
    [revisionId, table.id, pager.after, query],
    version,
  );

  return (
    <section aria-labelledby="rows-title">
      <h2 id="rows-title">Rows</h2>
      <RowFilterForm columns={columns} filter={filter} onApply={setFilter} error={where && 'error' in where ? where.error : null} />
      {sort && (
        <p className="meta">
          Sorted by {sort.key.replace(/^data:/, '')} ({sort.direction === 'asc' ? 'ascending' : 'descending'}){' '}
          <button type="button" className="link-button" onClick={() => setSort(null)}>
            default order
          </button>
        </p>
      )}
      <Async value={rows} what="rows" onRetry={reload}>
        {(connection) => (
          <PagedTable
            connection={connection}
            empty={filter ? 'No rows match the filter.' : editable ? 'No rows yet. Add one below.' : 'This table has no rows.'}
            caption={<>Rows of {table.id}</>}
            head={
              <>
                <SortHeader sortKey="id" label="id" sort={sort} onSort={setSort} />
                {shownColumns.map((column) => (
                  <SortHeader key={column.label} sortKey={dataSortKey(column)} label={column.label} sort={sort} onSort={setSort} />
                ))}
                <SortHeader sortKey="updatedAt" label="updated" sort={sort} onSort={setSort} />
                {editable && <th scope="col">State</th>}
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={revisionPath(address, 'table', table.id, 'row', node.id)}>{node.id}</Link>
                </td>
                {shownColumns.map((column) => (
                  <td key={column.label}>{cellText(valueAt(node.data, column.path))}</td>
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
      {editable && <CreateRowForm revisionId={revisionId} table={table} onCreated={onChanged} />}
    </section>
  );
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
