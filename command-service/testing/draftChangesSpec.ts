import assert from 'node:assert/strict';
import type { DraftOperation } from '../../contracts/index.ts';
import type { BranchCommandBody, BranchCommandData } from '../branches/branchCommand.ts';
import { decideBranch } from '../branches/branchDecider.ts';
import type { DraftChangesReport } from '../branches/draftChangesDecision.ts';
import { specTime, type BranchSpec } from './branchDeciderSpec.ts';

type Extra = Omit<BranchCommandData['ApplyDraftChanges'], 'operations'>;

/** An ApplyDraftChanges command body. */
export const changes = (operations: DraftOperation[], extra: Extra = {}): BranchCommandBody => ({
  type: 'ApplyDraftChanges',
  data: { operations, ...extra },
});

/** The report of an ApplyDraftChanges decided on the spec's state (nothing folded). */
export function draftChangesReport(spec: BranchSpec, body: BranchCommandBody, meta = { now: specTime(9), newId: 'x' }): DraftChangesReport {
  const decision = decideBranch({ ...body, metadata: { projectId: 'p1', tableInScope: () => true, ...meta } } as never, spec.state, spec.tools);
  assert.ok(decision.report);
  return decision.report;
}
