export { createSqliteViewStore } from './adapters/sqlite/sqliteViewStore.ts';
export { createSqliteThreads, sqliteThreadEntry } from './adapters/sqlite/sqliteReadPool.ts';
/** The MongoDB view store, imported when a deployment chooses it (the driver and BSON: ~7 MB of heap, ~20 MB of RSS). */
export const loadMongoViewStore = () => import('./adapters/mongo/mongoViewStore.ts');
export { createProjectionWorker } from './projectionWorker.ts';
export { createProjectionRunner } from './runner/projectionRunner.ts';
export { rebuildProjection } from './runner/rebuildProjection.ts';
export { createCheckpointWaiter } from './runner/checkpointWaiter.ts';
export { describeAllProjections } from './runner/describeProjections.ts';
export { createProjectionOperations } from './runner/projectionOperations.ts';
export { projectionTopic } from './runner/projector.ts';
export { createInProcessQueue } from './adapters/queue/inProcessQueue.ts';
/** The BullMQ queue, imported when REDIS_URL is set (bullmq and ioredis: ~5 MB of heap, ~28 MB of RSS). */
export const loadBullmqQueue = () => import('./adapters/queue/bullmqQueue.ts');
export { allProjectors } from './projectors/allProjectors.ts';
export { catalogProjector } from './projectors/catalogProjector.ts';
export { schemasProjector } from './projectors/schemasProjector.ts';
export { rowsProjector } from './projectors/rowsProjector.ts';

export type { Projector } from './runner/projector.ts';
export type { WebhookWorkerDeps } from './projectionWorker.ts';
export type { ProjectionWorker } from './projectionWorker.ts';
export type { ProjectionRunnerDeps } from './runner/projectionRunner.ts';
export type { ProjectionReport } from './runner/describeProjections.ts';
