// A pure model of a project's versioned content for the merge laws (mergeLaws.ts): two branches ("main" and
// "feat", forked from main's first revision), drafts written with the draft operations a merge emits, commits, and
// merges recorded in the revision graph exactly as the system state folds them (contracts/state/systemState.ts), so
// the real mergeBaseOf walks it. Each revision keeps its content and the row marks (renames, deletions) made in it:
// the diff between two revisions pairs tables and rows like the diff machinery does (mergeDiff.ts).
import type { DraftOperation } from '../commands/draftChanges.ts';
import { createSystemState, type SystemState } from '../state/systemState.ts';
import type { BranchRecord, RevisionRecord } from '../state/systemRecords.ts';
import { applyDraftOperations, cloneContent, type Content, type RowMark } from './mergeContent.ts';

export type Snapshot = { content: Content; marks: RowMark[]; touched: boolean };

export type History = {
  readonly state: SystemState;
  readonly snapshots: Map<string, Snapshot>;
  /** Log time: orders commits (criss-cross bases) and names new table keys. */
  clock: number;
};

export const BRANCH_IDS = ['main', 'feat'] as const;
export type BranchId = (typeof BRANCH_IDS)[number];

const timeAt = (tick: number) => new Date(Date.UTC(2026, 0, 1) + tick * 1000).toISOString();

function addRevision(h: History, branch: BranchRecord, content: Content, committed: boolean): RevisionRecord {
  const seq = branch.revisionIds.length;
  const id = `${branch.id}${seq}`;
  branch.revisionIds.push(id);
  const record: RevisionRecord = {
    id,
    branchId: branch.id,
    projectId: 'p',
    organizationId: 'o',
    seq,
    createdAt: timeAt(h.clock),
    mergedRevisionIds: [],
    committedAt: committed ? timeAt(++h.clock) : null,
  };
  h.state.revisions.set(id, record);
  h.snapshots.set(id, { content, marks: [], touched: false });
  return record;
}

function addBranch(h: History, id: BranchId, parent: RevisionRecord | null, content: Content): void {
  const branch: BranchRecord = {
    id,
    projectId: 'p',
    organizationId: 'o',
    name: id,
    isRoot: parent === null,
    createdAt: timeAt(h.clock),
    deleted: false,
    startRevisionId: '',
    headRevisionId: '',
    draftRevisionId: '',
    headSeq: 0,
    revisionIds: [],
    parent: parent === null ? null : { branchId: parent.branchId, revisionId: parent.id },
  };
  h.state.branches.set(id, branch);
  const start = addRevision(h, branch, cloneContent(content), true);
  const draft = addRevision(h, branch, cloneContent(content), false);
  branch.startRevisionId = branch.headRevisionId = start.id;
  branch.draftRevisionId = draft.id;
}

/** main0 holds `initial`; feat is created from it; both drafts start equal to it. */
export function createHistory(initial: Content): History {
  const h: History = { state: createSystemState(), snapshots: new Map(), clock: 0 };
  addBranch(h, 'main', null, initial);
  addBranch(h, 'feat', revisionOf(h, 'main0'), initial);
  return h;
}

export function revisionOf(h: History, id: string): RevisionRecord {
  const record = h.state.revisions.get(id);
  if (record === undefined) throw new Error(`unknown revision ${id}`);
  return record;
}

export function snapshotOf(h: History, revision: RevisionRecord): Snapshot {
  const snapshot = h.snapshots.get(revision.id);
  if (snapshot === undefined) throw new Error(`no content for revision ${revision.id}`);
  return snapshot;
}

const branchOf = (h: History, id: BranchId) => h.state.branches.get(id) as BranchRecord;
export const draftOf = (h: History, id: BranchId) => revisionOf(h, branchOf(h, id).draftRevisionId);
export const headOf = (h: History, id: BranchId) => revisionOf(h, branchOf(h, id).headRevisionId);

/** ApplyDraftChanges on the branch's draft: throws (and changes nothing) when an operation is impossible. */
export function writeDraft(h: History, id: BranchId, operations: readonly DraftOperation[]): void {
  if (operations.length === 0) return;
  const snapshot = snapshotOf(h, draftOf(h, id));
  const marks: RowMark[] = [];
  snapshot.content = applyDraftOperations(snapshot.content, operations, {
    newTableKey: () => `k${++h.clock}`,
    mark: (mark) => marks.push(mark),
  });
  snapshot.marks.push(...marks);
  snapshot.touched = true;
}

/** MergeRecorded (merge.md §5): the source joins the draft's pending merges. */
export function recordMerge(h: History, id: BranchId, sourceRevisionId: string): void {
  const draft = draftOf(h, id);
  if (!draft.mergedRevisionIds.includes(sourceRevisionId)) draft.mergedRevisionIds.push(sourceRevisionId);
}

/** CreateRevision: the draft becomes HEAD (NO_CHANGES, false, when nothing was written since). */
export function commit(h: History, id: BranchId): boolean {
  const branch = branchOf(h, id);
  const draft = draftOf(h, id);
  const snapshot = snapshotOf(h, draft);
  if (!snapshot.touched) return false;
  draft.committedAt = timeAt(++h.clock);
  branch.headRevisionId = draft.id;
  branch.headSeq = draft.seq;
  branch.draftRevisionId = addRevision(h, branch, cloneContent(snapshot.content), false).id;
  return true;
}
