import { catalogViews, createChangeList, fieldsEqual } from '../../contracts/index.ts';
import type { BranchRevisions, ChangeList, RecordedEvent, ViewChange, ViewDoc } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';
import { domainEventOf, streamEntityId } from './projectorSupport.ts';

/**
 * Projects, branches, revisions and endpoints (projection `catalog`, streams `organization-*` and `branch-*`).
 * Branch content events only matter here for the draft's `hasChanges` (= the branch's `touched`); a batch keeps
 * just the last value per draft.
 */
export const catalogProjector: Projector = {
  spec: catalogViews,
  categories: ['organization', 'branch'],
  apply(events: readonly RecordedEvent[]): ViewChange[] {
    const changes = createChangeList();
    for (const recorded of events) applyCatalogEvent(recorded, changes);
    return changes.list();
  },
};

type BranchDocInput = {
  readonly organizationId: string;
  readonly projectId: string;
  readonly revisions: BranchRevisions;
  readonly isRoot: boolean;
  readonly parent: { readonly branchName: string; readonly revisionId: string } | null;
  readonly time: string;
};

/** The branch document plus its start (sequence 0, committed) and draft (sequence 1) revisions. */
function pushNewBranch(input: BranchDocInput, changes: ChangeList): void {
  const { revisions, projectId, time } = input;
  const branchId = revisions.branchId;
  changes.push({
    op: 'upsert',
    collection: 'branches',
    doc: {
      id: branchId,
      projectId,
      organizationId: input.organizationId,
      name: revisions.name,
      isRoot: input.isRoot,
      createdAt: time,
      headRevisionId: revisions.startRevisionId,
      draftRevisionId: revisions.draftRevisionId,
      startRevisionId: revisions.startRevisionId,
      headSeq: 0,
      parentBranchName: input.parent?.branchName ?? null,
      parentRevisionId: input.parent?.revisionId ?? null,
      touched: false,
      deleted: false,
    },
  });
  const start = { branchId, projectId, parentId: input.parent?.revisionId ?? null, time };
  changes.push(revisionUpsert(revisions.startRevisionId, 0, { ...start, isStart: true, committedAt: time }));
  changes.push(
    revisionUpsert(revisions.draftRevisionId, 1, {
      branchId,
      projectId,
      parentId: revisions.startRevisionId,
      time,
      isStart: false,
      committedAt: null,
    }),
  );
}

function revisionUpsert(
  id: string,
  sequence: number,
  r: { branchId: string; projectId: string; parentId: string | null; time: string; isStart: boolean; committedAt: string | null },
): ViewChange {
  const doc: ViewDoc = {
    id,
    branchId: r.branchId,
    projectId: r.projectId,
    sequence,
    parentId: r.parentId,
    isStart: r.isStart,
    hasChanges: false,
    comment: '',
    createdAt: r.time,
    committedAt: r.committedAt,
  };
  return { op: 'upsert', collection: 'revisions', doc };
}

/** Sets the draft's hasChanges and the branch's touched; a later value for the same draft replaces this one. */
function setDraftChanged(changes: ChangeList, branchId: string, draftRevisionId: string, hasChanges: boolean): void {
  changes.pushLatest(`revision:${draftRevisionId}`, {
    op: 'update',
    collection: 'revisions',
    filter: fieldsEqual({ id: draftRevisionId }),
    set: { hasChanges },
  });
  changes.pushLatest(`branch:${branchId}`, {
    op: 'update',
    collection: 'branches',
    filter: fieldsEqual({ id: branchId }),
    set: { touched: hasChanges },
  });
}

function applyCatalogEvent(recorded: RecordedEvent, changes: ChangeList): void {
  const time = recorded.metadata.time;
  const event = domainEventOf(recorded);
  switch (event.type) {
    case 'ProjectCreated': {
      const d = event.data;
      changes.push({
        op: 'upsert',
        collection: 'projects',
        doc: {
          id: d.projectId,
          organizationId: d.organizationId,
          name: d.name,
          isPublic: d.isPublic,
          rootBranchId: d.rootBranch.branchId,
          rootBranchName: d.rootBranch.name,
          createdAt: time,
          deleted: false,
        },
      });
      const branch = { organizationId: d.organizationId, projectId: d.projectId, revisions: d.rootBranch };
      pushNewBranch({ ...branch, isRoot: true, parent: null, time }, changes);
      return;
    }
    case 'ProjectVisibilityChanged':
      changes.push({
        op: 'update',
        collection: 'projects',
        filter: fieldsEqual({ id: event.data.projectId }),
        set: { isPublic: event.data.isPublic },
      });
      return;
    case 'ProjectDeleted': {
      const projectId = event.data.projectId;
      changes.push({ op: 'update', collection: 'projects', filter: fieldsEqual({ id: projectId }), set: { deleted: true } });
      changes.push({ op: 'update', collection: 'branches', filter: fieldsEqual({ projectId }), set: { deleted: true } });
      changes.push({ op: 'update', collection: 'endpoints', filter: fieldsEqual({ projectId }), set: { deleted: true } });
      return;
    }
    case 'BranchCreated': {
      const d = event.data;
      const parent = { branchName: d.sourceBranchName, revisionId: d.sourceRevisionId };
      const organizationId = streamEntityId(recorded.streamId);
      pushNewBranch({ organizationId, projectId: d.projectId, revisions: d, isRoot: false, parent, time }, changes);
      return;
    }
    case 'BranchDeleted': {
      const branchId = event.data.branchId;
      changes.push({ op: 'update', collection: 'branches', filter: fieldsEqual({ id: branchId }), set: { deleted: true } });
      changes.push({ op: 'update', collection: 'endpoints', filter: fieldsEqual({ branchId }), set: { deleted: true } });
      return;
    }
    case 'EndpointCreated': {
      const d = event.data;
      changes.push({
        op: 'upsert',
        collection: 'endpoints',
        doc: {
          id: d.endpointId,
          organizationId: streamEntityId(recorded.streamId),
          projectId: d.projectId,
          projectName: d.projectName,
          branchId: d.branchId,
          branchName: d.branchName,
          type: d.type,
          mode: d.mode,
          pinnedRevisionId: d.pinnedRevisionId,
          createdAt: time,
          deleted: false,
        },
      });
      return;
    }
    case 'EndpointDeleted':
      changes.push({
        op: 'update',
        collection: 'endpoints',
        filter: fieldsEqual({ id: event.data.endpointId }),
        set: { deleted: true },
      });
      return;
    case 'RevisionCommitted': {
      const d = event.data;
      const branchId = streamEntityId(recorded.streamId);
      // The commit sets hasChanges and touched itself: pending draft values of this batch are obsolete.
      changes.dropLatest(`revision:${d.revisionId}`);
      changes.dropLatest(`branch:${branchId}`);
      changes.push({
        op: 'update',
        collection: 'revisions',
        filter: fieldsEqual({ id: d.revisionId }),
        set: { committedAt: time, comment: d.comment, hasChanges: false },
      });
      changes.push(
        revisionUpsert(d.newDraftRevisionId, d.newDraftSeq, {
          branchId,
          projectId: d.projectId,
          parentId: d.revisionId,
          time,
          isStart: false,
          committedAt: null,
        }),
      );
      changes.push({
        op: 'update',
        collection: 'branches',
        filter: fieldsEqual({ id: branchId }),
        set: { headRevisionId: d.revisionId, draftRevisionId: d.newDraftRevisionId, headSeq: d.seq, touched: false },
      });
      return;
    }
    case 'DraftReverted':
      setDraftChanged(changes, streamEntityId(recorded.streamId), event.data.draftRevisionId, false);
      return;
    case 'TableCreated':
    case 'TableSchemaUpdated':
    case 'TableRenamed':
    case 'TableDeleted':
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'RowsDeleted':
    case 'RowRenamed':
      setDraftChanged(changes, streamEntityId(recorded.streamId), event.data.draftRevisionId, event.data.draftHasChanges);
      return;
    default:
      return;
  }
}
