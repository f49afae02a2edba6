import type { DomainEvent } from '../../contracts/index.ts';
import { createBranchContent, type BranchContent } from './branchContent.ts';
import { validateBranchCommand, type BranchCommand, type BranchDeciderTools } from './branchCommand.ts';
import { decideDraftChanges, type DraftChangesReport } from './draftChangesDecision.ts';
import { evolveBranchContent } from './evolveBranchContent.ts';
import { decideCommit, decideRevert } from './revisionDecisions.ts';
import { decideDeleteRows, decideRenameRow } from './rowRenameDeleteDecisions.ts';
import { decideCreateRows, decidePatchRows, decideUpdateRows } from './rowWriteDecisions.ts';
import { decideCreateTable, decideDeleteTable, decideRenameTable } from './tableDecisions.ts';
import { decideUpdateTable } from './updateTableDecision.ts';

/**
 * Decides a branch-content command against the branch's draft: input checks, then domain rules; returns the events
 * to append (empty = a no-op). Never mutates `state`; the caller folds the appended events with `evolve`.
 */
export function decideBranchCommand(command: BranchCommand, state: BranchContent, tools: BranchDeciderTools): DomainEvent[] {
  validateBranchCommand(command);
  const meta = command.metadata;
  switch (command.type) {
    case 'CreateTable':
      return decideCreateTable(state, command.data, meta);
    case 'UpdateTable':
      return decideUpdateTable(state, command.data, meta, tools);
    case 'RenameTable':
      return decideRenameTable(state, command.data, meta, tools);
    case 'DeleteTable':
      return decideDeleteTable(state, command.data, meta, tools);
    case 'CreateRows':
      return decideCreateRows(state, command.data, meta, tools);
    case 'UpdateRows':
      return decideUpdateRows(state, command.data, meta, tools);
    case 'PatchRows':
      return decidePatchRows(state, command.data, meta, tools);
    case 'RenameRow':
      return decideRenameRow(state, command.data, meta, tools);
    case 'DeleteRows':
      return decideDeleteRows(state, command.data, meta, tools);
    case 'ApplyDraftChanges':
      return decideDraftChanges(state, command.data, meta, tools).events;
    case 'CreateRevision':
      return decideCommit(state, command.data, meta);
    case 'RevertChanges':
      return decideRevert(state, meta);
    default: {
      const never: never = command;
      return never;
    }
  }
}

/** A decision with what the caller's answer needs beyond the events. */
export type BranchDecision = {
  readonly events: DomainEvent[];
  /** ApplyDraftChanges: what each operation did. */
  readonly report?: DraftChangesReport;
  /** Decided like a real run; nothing is appended. */
  readonly dryRun?: boolean;
};

/** decideBranchCommand with the report of ApplyDraftChanges (the group commit answers from it). */
export function decideBranch(command: BranchCommand, state: BranchContent, tools: BranchDeciderTools): BranchDecision {
  if (command.type !== 'ApplyDraftChanges') return { events: decideBranchCommand(command, state, tools) };
  validateBranchCommand(command);
  const { events, report } = decideDraftChanges(state, command.data, command.metadata, tools);
  return { events, report, dryRun: command.data.dryRun === true };
}

/** The branch-content decider in Emmett's shape. */
export const branchDecider = {
  initialState: createBranchContent,
  evolve: evolveBranchContent,
  decide: decideBranchCommand,
} as const;
