import type { Projector } from '../runner/projector.ts';
import { catalogProjector } from './catalogProjector.ts';
import { directoryProjector } from './directoryProjector.ts';
import { rowsProjector } from './rowsProjector.ts';
import { schemasProjector } from './schemasProjector.ts';

/** The domain projections (operations.md §3): directory, catalog, schemas, rows. */
export const allProjectors: readonly Projector[] = [directoryProjector, catalogProjector, schemasProjector, rowsProjector];
