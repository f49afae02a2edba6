/** The content projections (`rows`, `schemas`) as pure functions, shared by the projection worker and the write side. */
export { createChangeList } from './changeList.ts';
export type { ChangeList } from './changeList.ts';
export { and, compare, domainEventOf, inChunks, streamEntityId } from './projectionSupport.ts';
export { rowsViewChanges } from './rowsProjection.ts';
export { schemasViewChanges } from './schemasProjection.ts';
export { TABLE_CONTENT_FIELDS, resolveTableLayers } from './tableLayers.ts';
export { layersAt, revisionLayers } from './revisionLayers.ts';
