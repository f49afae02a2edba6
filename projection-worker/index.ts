export { createSqliteViewStore } from './adapters/sqliteViewStore.ts';
export { createMongoViewStore } from './adapters/mongoViewStore.ts';
export { createProjectionWorker } from './projectionWorker.ts';
export { createProjectionRunner } from './runner/projectionRunner.ts';
export { rebuildProjection } from './runner/rebuildProjection.ts';
export { createCheckpointWaiter } from './runner/checkpointWaiter.ts';
export { describeProjections } from './runner/describeProjections.ts';
export { projectionTopic } from './runner/projector.ts';
export { createInProcessQueue } from './adapters/inProcessQueue.ts';
export { createBullmqQueue } from './adapters/bullmqQueue.ts';
export { allProjectors } from './projectors/allProjectors.ts';
export { catalogProjector } from './projectors/catalogProjector.ts';
export { schemasProjector } from './projectors/schemasProjector.ts';
export { rowsProjector } from './projectors/rowsProjector.ts';

export type { Projector } from './runner/projector.ts';
export type { ProjectionWorker } from './projectionWorker.ts';
export type { ProjectionRunnerDeps } from './runner/projectionRunner.ts';
export type { ProjectionReport } from './runner/describeProjections.ts';
