import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTableLayers, sqlitePosition, streamCategory } from '../../contracts/index.ts';
import type { AuthEventMap, DomainEventMap, Filter, Position, RecordedEvent, VersionLayer, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { createSqliteViewStore } from '../index.ts';
import type { Projector } from '../index.ts';
import { visibleAt } from '../../contracts/index.ts';

/** Support for the projector integration tests (real SQLite view store, events built in memory). */

/** Every event type a projector handles, with its data. */
type LoggedEventMap = DomainEventMap & AuthEventMap;

export type TestLog = {
  readonly events: RecordedEvent[];
  add<K extends keyof LoggedEventMap>(streamId: string, type: K, data: LoggedEventMap[K], time?: string): RecordedEvent;
};

export function createTestLog(): TestLog {
  const events: RecordedEvent[] = [];
  const revisions = new Map<string, number>();
  return {
    events,
    add(streamId, type, data, time) {
      const revision = (revisions.get(streamId) ?? -1) + 1;
      revisions.set(streamId, revision);
      const n = events.length + 1;
      const recorded: RecordedEvent = {
        type,
        schemaVersion: 1,
        data,
        metadata: {
          eventId: `e${n}`,
          correlationId: `c${n}`,
          causationId: null,
          principal: 'system',
          time: time ?? new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
        },
        streamId,
        revision,
        position: sqlitePosition(n),
      };
      events.push(recorded);
      return recorded;
    },
  };
}

/** ProjectCreated of project p1 ("blog") whose root branch b1 ("master") starts at r0 with draft r1. */
export function blogProjectCreated(organizationId: string): DomainEventMap['ProjectCreated'] {
  const rootBranch = { branchId: 'b1', name: 'master', startRevisionId: 'r0', draftRevisionId: 'r1' };
  return { projectId: 'p1', organizationId, name: 'blog', isPublic: false, rootBranch };
}

/** BranchCreated of branch b2 ("dev", start s0, draft s1) of project p1 from revision r1 (seq 1) of b1 ("master"). */
export const devBranchCreated: DomainEventMap['BranchCreated'] = {
  projectId: 'p1',
  branchId: 'b2',
  name: 'dev',
  startRevisionId: 's0',
  draftRevisionId: 's1',
  sourceBranchId: 'b1',
  sourceBranchName: 'master',
  sourceRevisionId: 'r1',
  sourceSeq: 1,
};

export type ProjectedViews = {
  readonly store: ViewStore;
  /** Applies every event not applied yet, in batches of `batchSize` (as the runner would read them). */
  catchUp(events: readonly RecordedEvent[], batchSize?: number): Promise<void>;
  /**
   * Versions of `collection` (`rows.rows` or `schemas.tables`) that revision `seq` of `branchId` sees through its
   * layers (the branches it was created from, by the BranchCreated events caught up so far), as readers read them.
   */
  visible(projection: string, collection: string, branchId: string, seq: number, filter?: Filter): Promise<ViewDoc[]>;
  close(): Promise<void>;
};

export async function openProjectedViews(projectors: readonly Projector[]): Promise<ProjectedViews> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-projectors-'));
  const store = createSqliteViewStore({ file: join(dir, 'views.db') });
  for (const projector of projectors) await store.ensureProjection(projector.spec);
  const checkpoints = new Map<Projector, Position | null>();
  const sources = new Map<string, VersionLayer>();
  const layersOf = (branchId: string, seq: number): VersionLayer[] => {
    const layers: VersionLayer[] = [{ branchId, seq }];
    for (let source = sources.get(branchId); source !== undefined; source = sources.get(source.branchId)) layers.push(source);
    return layers;
  };
  return {
    store,
    async catchUp(events, batchSize = 1000) {
      for (const event of events) {
        if (event.type !== 'BranchCreated') continue;
        const data = event.data as DomainEventMap['BranchCreated'];
        sources.set(data.branchId, { branchId: data.sourceBranchId, seq: data.sourceSeq });
      }
      for (const projector of projectors) {
        const after = checkpoints.get(projector) ?? null;
        const pending = events.filter((e) => (after === null || e.position > after) && projector.categories.includes(streamCategory(e.streamId)));
        for (let i = 0; i < pending.length; i += batchSize) {
          const batch = pending.slice(i, i + batchSize);
          const next = batch.at(-1)?.position as Position;
          const ref = { name: projector.spec.name, version: projector.spec.version };
          const ok = await store.applyBatch(ref, checkpoints.get(projector) ?? null, next, projector.apply(batch));
          if (!ok) throw new Error(`checkpoint conflict in ${ref.name}`);
          checkpoints.set(projector, next);
        }
      }
    },
    async visible(projection, collection, branchId, seq, filter) {
      const layers = layersOf(branchId, seq);
      if (collection === 'tables') {
        const perLayer = await Promise.all(
          layers.map((layer) => store.find(projection, collection, { filter: visibleAt(layer.branchId, layer.seq) })),
        );
        const tables = resolveTableLayers(perLayer).sort((a, b) => ((a.tableKey as string) < (b.tableKey as string) ? -1 : 1));
        if (filter !== undefined) throw new Error('visible tables take no filter');
        return tables;
      }
      return store.find(projection, collection, {
        ...(filter === undefined ? {} : { filter }),
        orderBy: [
          { ref: { field: 'rowId' }, direction: 'asc' },
          { ref: { field: 'tableKey' }, direction: 'asc' },
        ],
        versions: { layers, identity: ['tableKey', 'rowId'] },
      });
    },
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every document of every collection of the given projections, for comparing two stores. */
export async function dumpViews(store: ViewStore, projectors: readonly Projector[]): Promise<Record<string, ViewDoc[]>> {
  const out: Record<string, ViewDoc[]> = {};
  for (const projector of projectors) {
    for (const collection of projector.spec.collections) {
      const orderBy = collection.key.map((field) => ({ ref: { field }, direction: 'asc' as const }));
      out[`${projector.spec.name}.${collection.name}`] = await store.find(projector.spec.name, collection.name, { orderBy });
    }
  }
  return out;
}
