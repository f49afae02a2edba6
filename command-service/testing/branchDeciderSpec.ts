import assert from 'node:assert/strict';
import { isAppError } from '../../contracts/index.ts';
import type { DomainEvent, ErrorCode } from '../../contracts/index.ts';
import { createRowValidatorCache } from '../domain/tables/rowValidator.ts';
import { createBranchContent, type BranchContent } from '../branches/branchContent.ts';
import type { BranchCommandBody, BranchCommandMetadata, BranchDeciderTools } from '../branches/branchCommand.ts';
import { decideBranchCommand } from '../branches/branchDecider.ts';
import { evolveBranchContent } from '../branches/evolveBranchContent.ts';
import { createHeadValueIndexes } from '../branches/headValueIndexes.ts';
import { createTableModelCache } from '../branches/tableModelCache.ts';

/** Time of the n-th decision of a spec: 2025-01-01T00:00:0n.000Z-like, strictly increasing. */
export const specTime = (n: number): string => new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();

export type SpecMeta = Partial<BranchCommandMetadata>;

/**
 * given(events).when(command).then(events) for the branch decider (Emmett's DeciderSpecification shape). `exec`
 * decides and folds, to build the "given" history from commands; the n-th `exec` runs at `specTime(n)` with the
 * fresh id `id-n`, and `when`/`decide` run as the next one would.
 */
export type BranchSpec = {
  readonly state: BranchContent;
  readonly tools: BranchDeciderTools;
  /** Folds events as if they were appended. */
  given(...events: DomainEvent[]): BranchSpec;
  /** Decides without folding. */
  decide(body: BranchCommandBody, meta?: SpecMeta): DomainEvent[];
  /** Decides and folds; returns the events. */
  exec(body: BranchCommandBody, meta?: SpecMeta): DomainEvent[];
  when(
    body: BranchCommandBody,
    meta?: SpecMeta,
  ): {
    then(expected: readonly DomainEvent[]): void;
    thenThrows(code: ErrorCode, check?: (err: { message: string; details?: readonly unknown[] }) => void): void;
  };
};

export function createBranchSpec(): BranchSpec {
  const state = createBranchContent({ branchId: 'b1', headRevisionId: 'rev-0', draftRevisionId: 'rev-1' });
  const tools: BranchDeciderTools = {
    rowValidators: createRowValidatorCache(),
    models: createTableModelCache(),
    headValues: createHeadValueIndexes(),
  };
  let decisions = 0;
  let revision = -1;

  /** Metadata of the next decision; only `exec` moves on to the one after. */
  const metadata = (meta: SpecMeta = {}): BranchCommandMetadata => {
    const n = decisions + 1;
    return { now: specTime(n), newId: `id-${n}`, projectId: 'p1', tableInScope: () => true, ...meta };
  };
  const fold = (events: readonly DomainEvent[], time: string): void => {
    for (const event of events) evolveBranchContent(state, event, { revision: ++revision, time });
  };

  const spec: BranchSpec = {
    state,
    tools,
    given(...events) {
      fold(events, specTime(decisions));
      return spec;
    },
    decide(body, meta) {
      return decideBranchCommand({ ...body, metadata: metadata(meta) } as Parameters<typeof decideBranchCommand>[0], state, tools);
    },
    exec(body, meta) {
      const md = metadata(meta);
      decisions++;
      const events = decideBranchCommand({ ...body, metadata: md } as Parameters<typeof decideBranchCommand>[0], state, tools);
      fold(events, md.now);
      return events;
    },
    when(body, meta) {
      return {
        then(expected) {
          assert.deepEqual(spec.decide(body, meta), expected);
        },
        thenThrows(code, check) {
          assert.throws(
            () => spec.decide(body, meta),
            (err: unknown) => {
              assert.ok(isAppError(err), `expected AppError ${code}, got ${String(err)}`);
              assert.equal(err.code, code, err.message);
              check?.(err);
              return true;
            },
          );
        },
      };
    },
  };
  return spec;
}
