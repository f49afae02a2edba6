import type { HTMLAttributes, ReactNode } from 'react';

type GridTableProps<T> = {
  readonly items: readonly T[];
  readonly rowKey: (item: T) => string;
  /** The table's caption, for screen readers. */
  readonly caption: ReactNode;
  /** The header cells (`<th scope="col">`). */
  readonly head: ReactNode;
  /** The cells of one item's row. */
  readonly row: (item: T) => ReactNode;
  /** Attributes of one item's `<tr>` (data attributes, a selected state). */
  readonly rowProps?: (item: T) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Extra classes after `grid`. */
  readonly className?: string;
  /** When set, the table scrolls sideways in a focusable region with this label. */
  readonly scrollLabel?: string;
};

/** The Admin UI's data table: a `grid` table with a hidden caption, optionally in a labelled scroll region. */
export function GridTable<T>({ items, rowKey, caption, head, row, rowProps, className, scrollLabel }: GridTableProps<T>) {
  const table = (
    <table className={className === undefined ? 'grid' : `grid ${className}`}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>{head}</tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={rowKey(item)} {...rowProps?.(item)}>
            {row(item)}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (scrollLabel === undefined) return table;
  return (
    <div className="grid-scroll" tabIndex={0} role="region" aria-label={scrollLabel}>
      {table}
    </div>
  );
}
