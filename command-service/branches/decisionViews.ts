import { fieldsEqual, rowViews, rowsViewChanges, schemaViews, schemasViewChanges, streamEntityId } from '../../contracts/index.ts';
import type { CollectionSpec, ProjectionSpec, RecordedEvent, ViewChange } from '../../contracts/index.ts';

/** Name of the write side's decision state in its own view store (DATA_DIR/state.db). */
export const DECISION_PROJECTION = 'decision';

/** Only readers need these indexes; the decision state reads rows by key and tables by branch. */
function writeIndexesOnly(collection: CollectionSpec): CollectionSpec {
  return { ...collection, indexes: (collection.indexes ?? []).filter((index) => index.readersOnly !== true) };
}

const [rowsCollection] = rowViews.collections;
const [tablesCollection] = schemaViews.collections;

/**
 * The write side's decision state (docs/reference/versioned-storage.md §2): the `tables` of the schemas projection
 * and the `rows` of the rows projection, with the same layout and the same pure changes as the query side's views,
 * plus `branch_heads`: per branch stream, the revision of its last event (the expected revision of the next append)
 * and its HEAD as of that event, so that one catch-up gives content and expected revision from the same log
 * position. Row marks (history only) and schema patches (merges) are not kept. One projection, one checkpoint.
 */
export const decisionViews = {
  name: DECISION_PROJECTION,
  version: 1,
  collections: [
    writeIndexesOnly(tablesCollection),
    writeIndexesOnly(rowsCollection),
    {
      name: 'branch_heads',
      key: ['branchId'],
      fields: {
        branchId: 'text',
        /** Revision of the branch stream's last event. */
        streamRevision: 'integer',
        /** The HEAD after the branch's last commit; null until its first commit (the branch record says). */
        headSeq: 'integer',
        headRevisionId: 'text',
        draftRevisionId: 'text',
      },
    },
  ],
} as const satisfies ProjectionSpec;

const BRANCH_HEADS = 'branch_heads';

/** The `branch_heads` changes of a batch: one insert-if-absent and one update per branch stream it touches. */
function branchHeadChanges(events: readonly RecordedEvent[]): ViewChange[] {
  type Head = { streamRevision: number; commit: { headSeq: number; headRevisionId: string; draftRevisionId: string } | null };
  const heads = new Map<string, Head>();
  const deleted: string[] = [];
  for (const recorded of events) {
    if (recorded.type === 'BranchDeleted') {
      deleted.push((recorded.data as { branchId: string }).branchId);
      continue;
    }
    if (!recorded.streamId.startsWith('branch-')) continue;
    const branchId = streamEntityId(recorded.streamId);
    const head: Head = heads.get(branchId) ?? { streamRevision: recorded.revision, commit: null };
    head.streamRevision = recorded.revision;
    if (recorded.type === 'RevisionCommitted') {
      const d = recorded.data as { seq: number; revisionId: string; newDraftRevisionId: string };
      head.commit = { headSeq: d.seq, headRevisionId: d.revisionId, draftRevisionId: d.newDraftRevisionId };
    }
    heads.set(branchId, head);
  }
  const changes: ViewChange[] = [];
  for (const [branchId, head] of heads) {
    const doc = { branchId, streamRevision: head.streamRevision, headSeq: null, headRevisionId: null, draftRevisionId: null };
    changes.push({ op: 'insertIfAbsent', collection: BRANCH_HEADS, doc });
    const set = { streamRevision: head.streamRevision, ...(head.commit ?? {}) };
    changes.push({ op: 'update', collection: BRANCH_HEADS, filter: fieldsEqual({ branchId }), set });
  }
  for (const branchId of deleted) changes.push({ op: 'delete', collection: BRANCH_HEADS, filter: fieldsEqual({ branchId }) });
  return changes;
}

/** The decision state's changes for `events` (streams `branch-*` and `organization-*`, in log order). Pure. */
export function decisionViewChanges(events: readonly RecordedEvent[]): ViewChange[] {
  const rows = rowsViewChanges(events).filter((change) => change.collection !== 'row_marks');
  const tables = schemasViewChanges(events).filter((change) => change.collection !== 'schema_patches');
  return [...tables, ...rows, ...branchHeadChanges(events)];
}
