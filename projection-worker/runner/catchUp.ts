import { comparePositions, maxPosition } from '../../contracts/index.ts';
import type { EventStore, Position, ProjectionRef, ReadAllResult, RecordedEvent, ViewChange, ViewStore } from '../../contracts/index.ts';
import type { LogSubscriber } from './projector.ts';
import type { LogReader } from './sharedLogReader.ts';

export type CatchUpDeps = {
  readonly projector: LogSubscriber;
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly batchSize: number;
  /** Data a batch may read before it is cut (default BATCH_BYTES). */
  readonly batchBytes?: number;
  /**
   * Most view changes one batch should carry: the number of events read then adapts (from FIRST_ADAPTIVE_BATCH up
   * to `batchSize`) so that a batch of bulk events (1,000 rows each) stays a short transaction with bounded memory.
   * Unset: always `batchSize` events.
   */
  readonly maxChanges?: number;
  /** How batches are read (default: straight from `eventStore`); runners of one process share one. */
  readonly read?: LogReader;
  /** Storage version to write, re-read before every batch so a switch made by another process is followed. */
  readonly ref: () => Promise<ProjectionRef>;
  /** Checked between batches; false ends the catch-up after the in-flight batch. */
  readonly shouldContinue: () => boolean;
  /** After a batch moved the checkpoint: its events and the view changes they made. */
  readonly onBatch?: (ref: ProjectionRef, position: Position, events: number, changes: number) => void;
  readonly onConflict?: (ref: ProjectionRef) => void;
  /**
   * Only this catch-up writes the version (a rebuild's shadow, under the rebuild lease): the checkpoint is read
   * once and then followed here, and the next batch is read, projected and handed to the store while it writes the
   * previous one (at most two writes in flight, applied in call order: ViewStore.applyBatch). A checkpoint that moves
   * anyway fails the catch-up.
   */
  readonly exclusive?: boolean;
};

const MAX_CONFLICTS = 100;
const FIRST_ADAPTIVE_BATCH = 16;

/** The events to read next: fewer when the last batch carried more than `maxChanges` changes, more when far fewer. */
function nextBatchSize(size: number, events: number, changes: number, maxChanges: number, batchSize: number): number {
  if (changes > maxChanges) return Math.max(1, Math.floor((events * maxChanges) / changes));
  if (changes * 2 <= maxChanges && events >= size) return Math.min(batchSize, size * 2);
  return size;
}

/**
 * Stored event data one batch reads at most (then it is cut after the event that reaches it): a 1,000-event batch
 * of bulk writes would otherwise hold every row of them (docs/reference/versioned-storage.md §6).
 */
export const BATCH_BYTES = 16 * 1024 * 1024;

/**
 * Applies batches until the checkpoint reaches the log head; returns the number of events applied.
 * Each batch moves the checkpoint with compare-and-set, so a batch is never applied twice.
 */
export async function catchUpProjection(deps: CatchUpDeps): Promise<number> {
  const { projector, eventStore, viewStore, batchSize } = deps;
  const batchBytes = deps.batchBytes ?? BATCH_BYTES;
  let applied = 0;
  let conflicts = 0;
  let size = deps.maxChanges === undefined ? batchSize : Math.min(batchSize, FIRST_ADAPTIVE_BATCH);
  // Exclusive: the checkpoint as of the last batch handed to the store, and that batch's write.
  let followed: { ref: ProjectionRef; checkpoint: Position | null } | null = null;
  let writing: Promise<void> = Promise.resolve();
  const write = async (ref: ProjectionRef, from: Position | null, next: Position, changes: readonly ViewChange[], events: number) => {
    // Only the count is kept past the hand-over: the batch's documents are the store's from then on.
    const count = changes.length;
    if (!(await viewStore.applyBatch(ref, from, next, changes)))
      throw new Error(`checkpoint of ${ref.name} v${ref.version} moved under its only writer`);
    applied += events;
    deps.onBatch?.(ref, next, events, count);
  };
  try {
    await catchUpLoop();
  } catch (err) {
    // The store is left with no write of ours in flight (a failed rebuild drops its shadow next).
    await writing.catch(() => undefined);
    throw err;
  }
  await writing;
  return applied;

  async function catchUpLoop(): Promise<void> {
    while (deps.shouldContinue()) {
      const ref: ProjectionRef = followed?.ref ?? (await deps.ref());
      const checkpoint: Position | null = followed !== null ? followed.checkpoint : await viewStore.checkpoint(ref);
      // The head is read BEFORE the batch: every event up to it is either in the batch or outside our categories.
      const head = await eventStore.headPosition();
      if (head === null || comparePositions(head, checkpoint) <= 0) break;
      const events: ReadAllResult | readonly RecordedEvent[] =
        projector.categories.length === 0
          ? []
          : deps.read !== undefined
            ? await deps.read(checkpoint, projector.categories, size, head, batchBytes)
            : await eventStore.readAll(checkpoint, { categories: projector.categories, maxCount: size, maxBytes: batchBytes });
      // A full batch, or one cut short by batchBytes, ends at its last event: the next batch starts there. A short
      // batch otherwise means we saw everything up to the head; moving to it lets projections that ignore most
      // categories still reach the head, which read-your-writes waits for.
      const full: boolean = events.length >= size || ('cutShort' in events && events.cutShort === true);
      const last: Position | null = events.at(-1)?.position ?? null;
      const next: Position | null = full ? last : maxPosition(last, head);
      if (next === null || comparePositions(next, checkpoint) <= 0) break;
      const changes = await projector.apply(events);
      if (deps.maxChanges !== undefined) size = nextBatchSize(size, events.length, changes.length, deps.maxChanges, batchSize);
      if (deps.exclusive === true) {
        // Handed over before the previous write ends: the store prepares it (SQLite: converts it to column values
        // for its writing thread) while that write runs, instead of leaving the writer idle meanwhile.
        const previous = writing;
        writing = write(ref, checkpoint, next, changes, events.length);
        // Awaited before the next write or at the end; a failure meanwhile must not count as unhandled.
        writing.catch(() => undefined);
        await previous;
        followed = { ref, checkpoint: next };
        if (!full) break;
        continue;
      }
      if (!(await viewStore.applyBatch(ref, checkpoint, next, changes))) {
        deps.onConflict?.(ref);
        conflicts += 1;
        if (conflicts >= MAX_CONFLICTS) throw new Error(`checkpoint of ${ref.name} v${ref.version} keeps moving under us`);
        continue;
      }
      conflicts = 0;
      applied += events.length;
      deps.onBatch?.(ref, next, events.length, changes.length);
      if (!full) break;
    }
  }
}
