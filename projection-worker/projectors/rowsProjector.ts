import { rowViews, rowsViewChanges } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';

/**
 * Row versions per branch (projection `rows`); the changes are contracts' `rowsViewChanges`, which the write side's
 * decision store applies too (docs/reference/versioned-storage.md §2).
 */
export const rowsProjector: Projector = {
  spec: rowViews,
  categories: ['branch', 'organization'],
  apply: rowsViewChanges,
};
