import { branchStreamId, createBoundedCache, invariant } from '../../contracts/index.ts';
import type { AppendRequest, AppendResult, BranchRecord, DomainEvent, EventStore, RecordedEvent, SystemState } from '../../contracts/index.ts';
import { copyTables, createBranchContent, type BranchContent, type TableRecord } from './branchContent.ts';
import { evolveBranchContent } from './evolveBranchContent.ts';

export type BranchContentStoreOptions = {
  readonly eventStore: EventStore;
  /** Branch states kept in memory (least recently used ones are dropped). Default 64. */
  readonly maxBranches?: number;
  /** Source contents kept for deriving child branches, by (branch, sequence). Default 16. */
  readonly maxSnapshots?: number;
  /**
   * Estimated bytes of the branch states kept, and separately of the snapshots: each counted by its rows
   * (ROW_BYTES a row, TABLE_BYTES a table), measured when it is kept or loaded again. Default 1 GiB each: a branch
   * larger than that on its own is folded from its stream for every write.
   */
  readonly maxBytes?: number;
  /** Events read per readStream call. Default 5000. */
  readonly readBatch?: number;
};

/**
 * In-memory branch contents, folded from `branch-{id}` streams and cached (LRU). A branch created from another
 * branch starts from the source branch's content at the source sequence. `withBranch` serializes the work on one
 * branch within this process (so its writes do not conflict with each other) and catches the state up first; `run`
 * may fold events before they are appended, provided it takes them back (undo) when the append fails.
 */
export type BranchContentStore = {
  withBranch<T>(branch: BranchRecord, system: SystemState, run: (state: BranchContent) => Promise<T>): Promise<T>;
  /** Folds the events appended to the branch stream since the state's revision. */
  catchUp(state: BranchContent): Promise<void>;
  /**
   * Reads into `state` the facts the decisions taken on it asked for and lacked (BranchContent.facts); false when
   * they lacked nothing, so the last decision stands. A store holding whole branches always answers false.
   */
  gatherMissing(state: BranchContent): Promise<boolean>;
  /**
   * Told what a batch of `withBranch` appended (in order, all of it appended), before the branch's next batch: the
   * durable store applies it to its state without reading it back when it can (decisionCatchUp.ts).
   */
  appended?(appended: readonly { readonly request: AppendRequest; readonly result: AppendResult }[]): Promise<void>;
};

function toDomainEvent(recorded: RecordedEvent): DomainEvent {
  return { type: recorded.type, data: recorded.data } as DomainEvent;
}

/** What a stored row is counted at (its record, data object and Map slot; a typical row of a few short fields). */
export const ROW_BYTES = 512;
const TABLE_BYTES = 1024;

/** Estimated bytes of tables, from their row counts (walking a million rows on every load would cost more than it saves). */
function tablesBytes(tables: ReadonlyMap<string, TableRecord>): number {
  let bytes = 0;
  for (const table of tables.values()) bytes += TABLE_BYTES + ROW_BYTES * table.rows.size;
  return bytes;
}

function contentBytes(state: BranchContent): number {
  let bytes = tablesBytes(state.head);
  for (const overlay of state.draft.values()) bytes += TABLE_BYTES + (overlay === null ? 0 : ROW_BYTES * overlay.rows.size);
  return bytes;
}

export function createBranchContentStore(options: BranchContentStoreOptions): BranchContentStore {
  const { eventStore } = options;
  const maxBranches = Math.max(1, options.maxBranches ?? 64);
  const maxSnapshots = Math.max(1, options.maxSnapshots ?? 16);
  const readBatch = Math.max(1, options.readBatch ?? 5000);
  const maxBytes = options.maxBytes ?? 1024 * 1024 * 1024;
  const states = createBoundedCache<string, BranchContent>({ maxEntries: maxBranches, maxBytes, sizeOf: contentBytes });
  /** Immutable HEAD contents `${branchId}@${seq}`; readers copy them. */
  const snapshots = createBoundedCache<string, ReadonlyMap<string, TableRecord>>({ maxEntries: maxSnapshots, maxBytes, sizeOf: tablesBytes });
  const locks = new Map<string, Promise<void>>();
  /** Branches whose `run` is in progress: their live state may hold folds of events not yet appended. */
  const busy = new Set<string>();

  /** Folds stream events into `state` until `stop` says so (after folding the event) or the stream ends. */
  async function fold(state: BranchContent, stop?: (event: DomainEvent) => boolean): Promise<void> {
    const streamId = branchStreamId(state.branchId);
    for (;;) {
      const fromRevision = (state.streamRevision ?? -1) + 1;
      const batch = await eventStore.readStream(streamId, { fromRevision, maxCount: readBatch });
      for (const recorded of batch) {
        const event = toDomainEvent(recorded);
        evolveBranchContent(state, event, { revision: recorded.revision, time: recorded.metadata.time });
        if (stop?.(event)) return;
      }
      if (batch.length < readBatch) return;
    }
  }

  async function initialState(branch: BranchRecord, system: SystemState): Promise<BranchContent> {
    let head: Map<string, TableRecord> | undefined;
    if (branch.parent) {
      const source = system.branches.get(branch.parent.branchId);
      const sourceRevision = system.revisions.get(branch.parent.revisionId);
      invariant(source && sourceRevision, `source of branch ${branch.id} is unknown`);
      head = await contentAt(source, sourceRevision.seq, system);
    }
    return createBranchContent({
      branchId: branch.id,
      headRevisionId: branch.startRevisionId,
      draftRevisionId: branch.revisionIds[1] ?? branch.draftRevisionId,
      ...(head ? { head } : {}),
    });
  }

  /** A private copy of the branch's HEAD content at sequence `seq`. */
  async function contentAt(branch: BranchRecord, seq: number, system: SystemState): Promise<Map<string, TableRecord>> {
    const key = `${branch.id}@${seq}`;
    const cached = snapshots.get(key);
    if (cached) return copyTables(cached);
    // HEAD changes only on commit, so a live state at that sequence holds exactly the content asked for (unless a
    // write is in progress: its commit may be folded speculatively, before the append).
    const live = busy.has(branch.id) ? undefined : states.get(branch.id);
    if (live && live.headSeq === seq) return copyTables(live.head);
    const state = await initialState(branch, system);
    if (seq > 0) await fold(state, (event) => event.type === 'RevisionCommitted' && event.data.seq === seq);
    invariant(state.headSeq === seq, `revision ${seq} of branch ${branch.id} is not committed`);
    snapshots.set(key, state.head);
    return copyTables(state.head);
  }

  async function load(branch: BranchRecord, system: SystemState): Promise<BranchContent> {
    const cached = states.get(branch.id);
    if (cached) {
      await fold(cached);
      // Measured again: what was folded since may have added rows.
      states.set(branch.id, cached);
      return cached;
    }
    const state = await initialState(branch, system);
    await fold(state);
    states.set(branch.id, state);
    return state;
  }

  return {
    async withBranch(branch, system, run) {
      const previous = locks.get(branch.id) ?? Promise.resolve();
      let release = (): void => undefined;
      const current = new Promise<void>((resolve) => {
        release = resolve;
      });
      const tail = previous.then(() => current);
      locks.set(branch.id, tail);
      await previous;
      busy.add(branch.id);
      try {
        return await run(await load(branch, system));
      } finally {
        busy.delete(branch.id);
        release();
        if (locks.get(branch.id) === tail) locks.delete(branch.id);
      }
    },
    catchUp: (state) => fold(state),
    gatherMissing: () => Promise.resolve(false),
  };
}
