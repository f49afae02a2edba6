import type { Logger } from 'pino';
import { AppError, branchStreamId, isStreamConflict, isoTime, tableInScope } from '../../contracts/index.ts';
import type {
  AppendRequest,
  AppendResult,
  BranchRecord,
  Clock,
  CommandContext,
  CommandOutcome,
  DomainEvent,
  EventStore,
  Position,
  SystemState,
} from '../../contracts/index.ts';
import { buildEvents, MAX_APPEND_RETRIES } from '../commandHandler.ts';
import type { BranchContent } from './branchContent.ts';
import type { BranchCommand, BranchCommandBody, BranchCommandMetadata, BranchDeciderTools } from './branchCommand.ts';
import type { BranchContentStore } from './branchContentStore.ts';
import { decideBranch, type BranchDecision } from './branchDecider.ts';
import { recordCommandNeeds } from './commandFacts.ts';
import { decideOnFacts } from './decideOnFacts.ts';
import type { DraftChangesReport } from './draftChangesDecision.ts';
import { evolveBranchContent, undoChanges, type UndoLog } from './evolveBranchContent.ts';

/**
 * What one decision produced: the events (empty = no-op; a dry run's are not appended), its time, the HEAD it was
 * taken against and, for ApplyDraftChanges, its report.
 */
export type Decided = {
  readonly events: DomainEvent[];
  readonly now: number;
  readonly headBefore: string;
  readonly report?: DraftChangesReport;
};

/**
 * Builds a command's result from the state right after its own events were folded (or right after a no-op
 * decision). Called synchronously before the next command of the batch is decided, so it sees exactly its own
 * effects; the result is delivered only once the events are durable.
 */
export type Answer<T> = (state: BranchContent, decided: Decided) => T | Promise<T>;

export type BranchWriteBatchDeps = {
  readonly store: BranchContentStore;
  readonly eventStore: EventStore;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly log: Logger;
  readonly tools: BranchDeciderTools;
  /** Projections a write must reach before it is visible (WRITE_CONSISTENCY=projected). */
  readonly projections: readonly string[];
  /** Conflicts with other processes one command survives before CONCURRENT_MODIFICATION; default 5. */
  readonly maxRetries?: number;
};

/**
 * Group commit of branch-content writes (issue "Write path"): the commands that queue up for a branch while its
 * previous batch is being appended form the next batch. They are decided one after another against the branch's
 * content (the facts gathered from the decision state, or the whole branch in memory without one), each folding
 * its events into it before the next is decided (exactly as if serialized), then the whole
 * batch is appended with one `appendBatch` (one transaction on SQLite, shared with the batches of other branches
 * that are ready in the same turn of the event loop). Every caller gets its own answer: a refusal refuses only its
 * command; an append conflict (another process wrote the branch) undoes the speculative folds from the failed
 * command on and decides those commands again against the caught-up content.
 */
export type BranchWriteBatch = {
  submit<T>(
    branch: BranchRecord,
    system: SystemState,
    body: BranchCommandBody,
    context: CommandContext,
    answer: Answer<T>,
  ): Promise<CommandOutcome<T>>;
};

type Job = {
  readonly body: BranchCommandBody;
  readonly context: CommandContext;
  readonly answer: Answer<unknown>;
  readonly resolve: (outcome: CommandOutcome<unknown>) => void;
  readonly reject: (err: unknown) => void;
  /** Append conflicts this command has met so far. */
  conflicts: number;
};

type Queue = { branch: BranchRecord; system: SystemState; readonly jobs: Job[]; running: boolean };

type Planned =
  | { readonly kind: 'refused'; readonly job: Job; readonly error: unknown }
  | { readonly kind: 'noop'; readonly job: Job; readonly answered: Promise<unknown> }
  | {
      readonly kind: 'append';
      readonly job: Job;
      readonly request: AppendRequest;
      readonly answered: Promise<unknown>;
      readonly undo: UndoLog;
    };

/** Calls `answer` now; its failure is reported when the command is settled (and ignored if it is decided again). */
function answerNow(job: Job, state: BranchContent, decided: Decided): Promise<unknown> {
  let answered: Promise<unknown>;
  try {
    answered = Promise.resolve(job.answer(state, decided));
  } catch (err) {
    answered = Promise.reject(err);
  }
  answered.catch(() => undefined);
  return answered;
}

export function createBranchWriteBatch(deps: BranchWriteBatchDeps): BranchWriteBatch {
  const { store, eventStore, clock, tools, projections } = deps;
  const maxRetries = deps.maxRetries ?? MAX_APPEND_RETRIES;
  const queues = new Map<string, Queue>();

  function settle(job: Job, answered: Promise<unknown>, position: Position | null): void {
    answered.then((result) => job.resolve({ result, position, projections }), job.reject);
  }

  /**
   * Decides `jobs` in order against `state`, folding each one's events with an undo record. A state gathered from
   * the decision store (BranchContent.facts) holds HEAD's rows only as far as decisions asked: after a commit the
   * batch ends there, and the commands after it are decided in the next batch, on the new HEAD.
   */
  async function decideAll(state: BranchContent, branch: BranchRecord, jobs: readonly Job[]): Promise<{ planned: Planned[]; undecided: Job[] }> {
    const streamId = branchStreamId(branch.id);
    const planned: Planned[] = [];
    if (state.facts !== undefined && jobs.length > 1) {
      // What every command names is gathered at once (a read per table side, not per command); each decision below
      // still records its own needs, which are then known. Folds made later win over what was gathered here.
      for (const job of jobs) recordCommandNeeds(state, tools, job.body);
      await store.gatherMissing(state);
    }
    for (const [index, job] of jobs.entries()) {
      const now = clock.now();
      const metadata: BranchCommandMetadata = {
        now: isoTime(now),
        newId: deps.newId(),
        projectId: branch.projectId,
        tableInScope: (tableId) => tableInScope(job.context.principal, tableId),
      };
      const outcome = await decideOnFacts(
        store,
        state,
        () => decideBranch({ ...job.body, metadata } as BranchCommand, state, tools),
        () => recordCommandNeeds(state, tools, job.body),
      );
      if (!outcome.ok) {
        planned.push({ kind: 'refused', job, error: outcome.error });
        continue;
      }
      const decision: BranchDecision = outcome.value;
      const { events, report } = decision;
      const decided: Decided = { events, now, headBefore: state.headRevisionId, ...(report ? { report } : {}) };
      if (events.length === 0 || decision.dryRun === true) {
        planned.push({ kind: 'noop', job, answered: answerNow(job, state, decided) });
        continue;
      }
      const expected = state.streamRevision ?? 'no_stream';
      const first = (state.streamRevision ?? -1) + 1;
      const time = isoTime(now);
      const undo: UndoLog = [];
      try {
        events.forEach((event, i) => evolveBranchContent(state, event, { revision: first + i, time, undo }));
      } catch (error) {
        // A fold that throws is a bug; take back what it changed, refuse it, and leave the rest for the next batch.
        undoChanges(undo);
        deps.log.error({ err: error, branch: branch.id }, 'folding decided events failed');
        planned.push({ kind: 'refused', job, error });
        return { planned, undecided: jobs.slice(index + 1) };
      }
      const request: AppendRequest = { streamId, events: buildEvents(events, job.context, clock, now), expected };
      planned.push({ kind: 'append', job, request, answered: answerNow(job, state, decided), undo });
      if (state.facts !== undefined && events.some((event) => event.type === 'RevisionCommitted')) {
        return { planned, undecided: jobs.slice(index + 1) };
      }
    }
    return { planned, undecided: [] };
  }

  /** One batch: decide, append, answer. Returns the commands to decide again (after a conflict), in order. */
  async function runBatch(state: BranchContent, branch: BranchRecord, jobs: readonly Job[]): Promise<Job[]> {
    const { planned, undecided } = await decideAll(state, branch, jobs);
    const appends = planned.filter((p): p is Extract<Planned, { kind: 'append' }> => p.kind === 'append');
    let outcomes;
    try {
      outcomes = appends.length > 0 ? await eventStore.appendBatch(appends.map((p) => p.request)) : [];
    } catch (err) {
      for (const plan of [...appends].reverse()) undoChanges(plan.undo);
      throw err;
    }
    // A no-op answers with the log head seen after the batch: at or after every event it was decided against.
    const seen = planned.some((p) => p.kind === 'noop') ? await eventStore.headPosition() : null;
    const failedAt = outcomes.findIndex((outcome) => !outcome.ok);
    // Take back the folds of every append from the first failure on (later ones were decided on top of it).
    if (failedAt >= 0) for (const plan of appends.slice(failedAt).reverse()) undoChanges(plan.undo);
    const again: Job[] = [];
    let failed = false;
    let appendIndex = 0;
    for (const plan of planned) {
      if (failed) {
        again.push(plan.job);
        continue;
      }
      if (plan.kind === 'refused') plan.job.reject(plan.error);
      else if (plan.kind === 'noop') settle(plan.job, plan.answered, seen);
      else {
        const outcome = outcomes[appendIndex++];
        if (outcome?.ok === true) {
          settle(plan.job, plan.answered, outcome.result.position);
          continue;
        }
        failed = true;
        const error = outcome?.ok === false ? outcome.error : new Error('append outcome missing');
        if (!isStreamConflict(error)) plan.job.reject(error);
        else if (++plan.job.conflicts > maxRetries) plan.job.reject(new AppError('CONCURRENT_MODIFICATION'));
        else {
          deps.log.debug({ branch: branch.id, conflicts: plan.job.conflicts }, 'append conflict, deciding again');
          again.push(plan.job);
        }
      }
    }
    // Every append went in: the durable store applies them to its state without reading them back (the branch's
    // next batch would otherwise read them from the log first).
    if (failedAt < 0 && appends.length > 0 && store.appended) {
      await store.appended(appends.map((plan, i) => ({ request: plan.request, result: (outcomes[i] as { result: AppendResult }).result })));
    }
    return [...again, ...undecided];
  }

  async function drain(queue: Queue): Promise<void> {
    try {
      while (queue.jobs.length > 0) {
        const { branch, system } = queue;
        await store
          .withBranch(branch, system, async (state) => {
            const jobs = queue.jobs.splice(0);
            try {
              const again = await runBatch(state, branch, jobs);
              queue.jobs.unshift(...again);
            } catch (err) {
              for (const job of jobs) job.reject(err);
            }
          })
          .catch((err: unknown) => {
            // Loading the branch failed: nothing was decided.
            for (const job of queue.jobs.splice(0)) job.reject(err);
          });
      }
    } finally {
      queue.running = false;
      if (queue.jobs.length === 0 && queues.get(queue.branch.id) === queue) queues.delete(queue.branch.id);
    }
  }

  return {
    submit(branch, system, body, context, answer) {
      return new Promise((resolve, reject) => {
        let queue = queues.get(branch.id);
        if (queue === undefined) {
          queue = { branch, system, jobs: [], running: false };
          queues.set(branch.id, queue);
        }
        // The newest system state loads the branch (a child branch's source is found in it).
        queue.branch = branch;
        queue.system = system;
        const job: Job = {
          body,
          context,
          answer: answer as Answer<unknown>,
          resolve: resolve as (outcome: CommandOutcome<unknown>) => void,
          reject,
          conflicts: 0,
        };
        queue.jobs.push(job);
        if (!queue.running) {
          queue.running = true;
          const started = queue;
          // Commands that arrive in this turn of the event loop join the first batch.
          setImmediate(() => void drain(started));
        }
      });
    },
  };
}
