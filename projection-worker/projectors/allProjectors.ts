import type { Projector } from '../runner/projector.ts';
import { apiKeysProjector } from './apiKeysProjector.ts';
import { catalogProjector } from './catalogProjector.ts';
import { directoryProjector } from './directoryProjector.ts';
import { rowsProjector } from './rowsProjector.ts';
import { schemasProjector } from './schemasProjector.ts';
import { sessionsProjector } from './sessionsProjector.ts';

/** Every projection (operations.md §3): directory, catalog, schemas, rows, api-keys, sessions. */
export const allProjectors: readonly Projector[] = [
  directoryProjector,
  catalogProjector,
  schemasProjector,
  rowsProjector,
  apiKeysProjector,
  sessionsProjector,
];
