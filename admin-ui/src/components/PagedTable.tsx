import type { ComponentProps, ReactNode } from 'react';
import type { Connection } from '../api/types.ts';
import { GridTable } from './GridTable.tsx';
import { Pager, type CursorPager } from './Pager.tsx';
import { Empty } from './Status.tsx';

type PagedTableProps<T extends { readonly id: string }> = {
  readonly connection: Connection<T>;
  /** Shown instead of the table when the connection has no items at all. */
  readonly empty: ReactNode;
  /** The table's caption, for screen readers. */
  readonly caption: ReactNode;
  /** The header cells. */
  readonly head: ReactNode;
  /** The cells of one item's row. */
  readonly row: (node: T) => ReactNode;
  readonly pager: CursorPager;
  readonly pageSize: number;
  /** What the items are, in the pager's text. */
  readonly noun: string;
  /** When set, the table scrolls sideways in a focusable region with this label. */
  readonly scrollLabel?: string;
  /** Attributes of one item's `<tr>`. */
  readonly rowProps?: ComponentProps<typeof GridTable<T>>['rowProps'];
};

/** One page of a connection as a grid table with its pager, or a note when the connection is empty. */
export function PagedTable<T extends { readonly id: string }>({
  connection,
  empty,
  caption,
  head,
  row,
  pager,
  pageSize,
  noun,
  scrollLabel,
  rowProps,
}: PagedTableProps<T>) {
  if (connection.totalCount === 0) return <Empty>{empty}</Empty>;
  const items = connection.edges.map(({ node }) => node);
  return (
    <>
      <GridTable
        items={items}
        rowKey={(node) => node.id}
        caption={caption}
        head={head}
        row={row}
        {...(scrollLabel === undefined ? {} : { scrollLabel })}
        {...(rowProps === undefined ? {} : { rowProps })}
      />
      <Pager
        pager={pager}
        pageInfo={connection.pageInfo}
        pageSize={pageSize}
        shown={connection.edges.length}
        totalCount={connection.totalCount}
        noun={noun}
      />
    </>
  );
}
