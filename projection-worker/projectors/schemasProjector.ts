import { schemaViews, schemasViewChanges } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';

/**
 * Table versions per branch (projection `schemas`); the changes are contracts' `schemasViewChanges`, which the write
 * side's decision store applies too (docs/reference/versioned-storage.md §2).
 */
export const schemasProjector: Projector = {
  spec: schemaViews,
  categories: ['branch', 'organization'],
  apply: schemasViewChanges,
};
