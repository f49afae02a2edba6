import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { AppError } from '../../contracts/index.ts';
import type { EventStore, ProjectionRef, ViewStore } from '../../contracts/index.ts';
import { catchUpProjection } from './catchUp.ts';
import type { Projector } from './projector.ts';

export type RebuildDeps = {
  readonly projector: Projector;
  readonly eventStore: EventStore;
  readonly viewStore: ViewStore;
  readonly log: Logger;
  /** Progress in log events: `done` of `total` (an estimate while events keep arriving). */
  readonly onProgress?: (done: number, total: number) => void;
  /** The storage version being filled, once chosen. */
  readonly onShadow?: (version: number) => void;
  readonly batchSize?: number;
  /** View changes per shadow batch the replay aims at (catchUp `maxChanges`); default 5,000. */
  readonly maxChangesPerBatch?: number;
  /** Lease owner; a caller that already holds `<name>:rebuild` under this owner keeps it (renewal). */
  readonly owner?: string;
  readonly leaseTtlMs?: number;
  /** Grace period between switching readers and dropping the old copy, for reads and batches in flight. */
  readonly dropDelayMs?: number;
  /** Aborting fails the rebuild before the switch (the shadow is dropped, the live copy untouched). */
  readonly signal?: AbortSignal;
};

export type RebuildResult = {
  readonly name: string;
  readonly version: number;
  readonly previousVersion: number | null;
  readonly events: number;
};

const PROGRESS_INTERVAL_MS = 250;

/**
 * Replays the whole log into the next storage version while the live copy keeps serving, then switches readers to
 * it and drops the old copy (spec operations §5). On failure the shadow is dropped and the live copy is untouched.
 * The live runner, in this or another process, follows the switch and continues on the new version.
 */
/** The lease that makes rebuilds of one projection exclusive across processes (CLI, API). */
export function rebuildLeaseName(name: string): string {
  return `${name}:rebuild`;
}

export async function rebuildProjection(deps: RebuildDeps): Promise<RebuildResult> {
  const { projector, eventStore, viewStore } = deps;
  const name = projector.spec.name;
  const leaseName = rebuildLeaseName(name);
  const owner = deps.owner ?? `rebuild:${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseTtlMs = deps.leaseTtlMs ?? 30_000;
  const log = deps.log.child({ projection: name, rebuild: true });

  if (!(await viewStore.acquireLease(leaseName, owner, leaseTtlMs))) {
    throw new AppError('REBUILD_IN_PROGRESS', `A rebuild of "${name}" is already running`);
  }
  let leaseLost = false;
  const renewal = setInterval(
    () => {
      viewStore.acquireLease(leaseName, owner, leaseTtlMs).then(
        (held) => {
          if (!held) leaseLost = true;
        },
        (err: unknown) => log.warn({ err }, 'rebuild lease renewal failed'),
      );
    },
    Math.max(1, Math.floor(leaseTtlMs / 3)),
  );

  let shadow: ProjectionRef | null = null;
  let activated = false;
  try {
    const previousVersion = await viewStore.activeVersion(name);
    const versions = (await viewStore.projectionStatuses()).filter((s) => s.name === name).map((s) => s.version);
    const version = Math.max(projector.spec.version - 1, previousVersion ?? 0, ...versions) + 1;
    // Shadows left by crashed rebuilds are not active and only rebuilds (whose lease we hold) write to them.
    for (const stale of versions) {
      if (stale !== previousVersion) await viewStore.dropVersion({ name, version: stale });
    }
    shadow = { name, version };
    deps.onShadow?.(version);
    // Indexes only readers need are built once from the filled shadow (completeVersion), not row by row.
    await viewStore.ensureProjection({ ...projector.spec, version }, { deferReadIndexes: true });
    log.info({ version, previousVersion }, 'rebuild started');

    const progress = createProgress(eventStore, deps.onProgress);
    await progress.start();
    const target = shadow;
    const catchUp = () =>
      catchUpProjection({
        projector,
        eventStore,
        viewStore,
        batchSize: deps.batchSize ?? 1000,
        // Bulk events carry up to 1,000 rows: batches of at most ~5,000 rows keep each shadow transaction short
        // (the event loop of a server running the rebuild answers between them) and memory independent of the size.
        maxChanges: deps.maxChangesPerBatch ?? 5_000,
        ref: () => Promise.resolve(target),
        // Only the holder of the rebuild lease writes the shadow: the next batch is read, projected and handed over
        // while the last is written.
        exclusive: true,
        shouldContinue: () => {
          if (leaseLost) throw new Error(`lost the rebuild lease of projection ${name}`);
          deps.signal?.throwIfAborted();
          return true;
        },
        onBatch: (_ref, position) => progress.update(position),
      });
    const started = performance.now();
    let events = await catchUp();
    const replayed = performance.now();
    await viewStore.completeVersion(shadow);
    const completed = performance.now();
    // Events appended while the indexes were built, so that readers switch to a copy as fresh as the live one.
    events += await catchUp();
    await progress.finish();
    deps.signal?.throwIfAborted();

    await viewStore.activate(name, version);
    activated = true;
    const ms = (from: number, to: number) => Math.round(to - from);
    const phases = { replayMs: ms(started, replayed), completeMs: ms(replayed, completed), catchUpMs: ms(completed, performance.now()) };
    log.info({ version, previousVersion, events, ...phases }, 'rebuild switched readers');
    if (previousVersion !== null && previousVersion !== version) {
      await new Promise((resolve) => setTimeout(resolve, deps.dropDelayMs ?? 500));
      try {
        await viewStore.dropVersion({ name, version: previousVersion });
      } catch (err) {
        // The rebuild itself succeeded; the next rebuild drops this stale copy.
        log.warn({ err, version: previousVersion }, 'could not drop the previous version');
      }
    }
    return { name, version, previousVersion, events };
  } catch (err) {
    log.error({ err, version: shadow?.version }, 'rebuild failed');
    if (shadow !== null && !activated) {
      await viewStore.dropVersion(shadow).catch((dropErr: unknown) => {
        log.warn({ err: dropErr, version: shadow?.version }, 'could not drop the shadow version');
      });
    }
    throw err;
  } finally {
    clearInterval(renewal);
    await viewStore.releaseLease(leaseName, owner).catch((err: unknown) => {
      log.warn({ err }, 'rebuild lease release failed');
    });
  }
}

/** Throttled `done/total` estimate from event counts (counts are not free on large logs). */
function createProgress(eventStore: EventStore, report: RebuildDeps['onProgress']) {
  let total = 0;
  let done = 0;
  let lastReport = 0;
  let counting: Promise<void> | null = null;
  return {
    async start() {
      if (!report) return;
      total = await eventStore.countAfter(null);
      lastReport = performance.now();
      report(0, total);
    },
    update(position: string) {
      if (!report || counting !== null || performance.now() - lastReport < PROGRESS_INTERVAL_MS) return;
      lastReport = performance.now();
      counting = eventStore.countAfter(position).then(
        (remaining) => {
          counting = null;
          total = Math.max(total, done + remaining);
          done = Math.max(done, total - remaining);
          report(done, total);
        },
        () => {
          counting = null;
        },
      );
    },
    async finish() {
      if (!report) return;
      await counting;
      total = Math.max(total, done);
      report(total, total);
    },
  };
}
