import { useState } from 'react';
import type { PageInfo } from '../api/types.ts';

export type CursorPager = {
  /** Cursor for the current page (undefined on the first page). */
  readonly after: string | undefined;
  /** 0-based page number. */
  readonly page: number;
  next(endCursor: string): void;
  previous(): void;
};

/**
 * Cursor paging (system-api.md §2): a stack of the `endCursor`s that led to each page, so Previous goes back
 * exactly. A new `resetKey` (other filter or order) starts again at page one.
 */
export function useCursorPager(resetKey = ''): CursorPager {
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: resetKey, cursors: [undefined] });
  const cursors = state.key === resetKey ? state.cursors : [undefined];
  return {
    after: cursors[cursors.length - 1],
    page: cursors.length - 1,
    next: (endCursor) => setState({ key: resetKey, cursors: [...cursors, endCursor] }),
    previous: () => setState({ key: resetKey, cursors: cursors.length > 1 ? cursors.slice(0, -1) : cursors }),
  };
}

type PagerProps = {
  readonly pager: CursorPager;
  readonly pageInfo: PageInfo;
  readonly pageSize: number;
  readonly shown: number;
  readonly totalCount: number;
  readonly noun: string;
};

export function Pager({ pager, pageInfo, pageSize, shown, totalCount, noun }: PagerProps) {
  const from = shown === 0 ? 0 : pager.page * pageSize + 1;
  const to = pager.page * pageSize + shown;
  return (
    <nav className="pager" aria-label={`${noun} pages`}>
      <span role="status">{totalCount === 0 ? `No ${noun}` : `${from}–${to} of ${totalCount} ${noun}`}</span>
      <button type="button" onClick={pager.previous} disabled={pager.page === 0}>
        Previous<span className="visually-hidden"> page of {noun}</span>
      </button>
      <button
        type="button"
        onClick={() => pageInfo.endCursor && pager.next(pageInfo.endCursor)}
        disabled={!pageInfo.hasNextPage || !pageInfo.endCursor}
      >
        Next<span className="visually-hidden"> page of {noun}</span>
      </button>
    </nav>
  );
}
