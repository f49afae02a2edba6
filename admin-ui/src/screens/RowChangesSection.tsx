import { useEffect, useRef, useState } from 'react';
import type { RowChange, RowChangeKind, TableChange } from '../api/changeTypes.ts';
import { RowChangesDocument } from '../api/generated/operations.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Select } from '../components/Fields.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, Empty } from '../components/Status.tsx';
import { RowChangeCard } from './RowChangeCard.tsx';

const PAGE_SIZE = 20;

/** App paths of a changed row in the compared revision and of its history there, each null where there is none. */
export type RowLinks = (table: TableChange, change: RowChange) => { readonly row: string | null; readonly history: string | null };

const KIND_OPTIONS = [
  { value: '', label: 'All changes' },
  { value: 'ADDED', label: 'Added rows' },
  { value: 'UPDATED', label: 'Updated rows' },
  { value: 'REMOVED', label: 'Removed rows' },
  { value: 'RENAMED', label: 'Renamed rows' },
];

type RowChangesSectionProps = {
  readonly revisionId: string;
  readonly compareWith: string | null;
  readonly table: TableChange;
  readonly rowLinks: RowLinks;
};

/** The changed rows of one table, ordered by row id and paged, optionally of one kind (`rowChanges`). */
export function RowChangesSection({ revisionId, compareWith, table, rowLinks }: RowChangesSectionProps) {
  const [kind, setKind] = useState('');
  const pager = useCursorPager(kind);
  const rows = useOperation(
    queryKeys.revision(revisionId),
    RowChangesDocument,
    {
      data: {
        revisionId,
        tableId: table.tableId,
        first: PAGE_SIZE,
        after: pager.after ?? null,
        ...(compareWith ? { compareWith } : {}),
        ...(kind ? { changes: [kind as RowChangeKind] } : {}),
      },
    },
    { select: (d) => d.rowChanges },
  );
  const titleId = `row-changes-${table.tableId}`;
  // Opening a table's rows (a link above) moves keyboard and screen-reader users to them.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby={titleId} className="row-changes">
      <h2 id={titleId} ref={heading} tabIndex={-1}>
        Row changes of {table.tableId}
      </h2>
      {table.schemaChanged && <p className="meta">The table schema changed as well.</p>}
      <div className="filter-form">
        <Select label="Show" value={kind} onChange={setKind} options={KIND_OPTIONS} />
      </div>
      <Async value={rows} what="row changes">
        {(connection) =>
          connection.totalCount === 0 ? (
            <Empty>{kind ? 'No rows changed this way.' : 'No row changed in this table (only its schema or id).'}</Empty>
          ) : (
            <>
              <ol className="row-change-list">
                {connection.edges.map(({ node }) => (
                  <li key={`${node.change}:${node.rowId}`}>
                    <RowChangeCard change={node as RowChange} links={rowLinks(table, node as RowChange)} />
                  </li>
                ))}
              </ol>
              <Pager
                pager={pager}
                pageInfo={connection.pageInfo}
                pageSize={PAGE_SIZE}
                shown={connection.edges.length}
                totalCount={connection.totalCount}
                noun="row changes"
              />
            </>
          )
        }
      </Async>
    </section>
  );
}
