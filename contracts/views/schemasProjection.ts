import type { DomainEvent, TableFacts } from '../events/domainEvents.ts';
import { patchEntryOf } from '../merge/schemaPatchChain.ts';
import type { RecordedEvent } from '../events/envelope.ts';
import { fieldsEqual } from '../ports/viewStore.ts';
import type { ViewChange, ViewDoc } from '../ports/viewStore.ts';
import { createChangeList } from './changeList.ts';
import type { ChangeList } from './changeList.ts';
import { domainEventOf, streamEntityId } from './projectionSupport.ts';
import { OPEN_SEQ } from './viewSpecs.ts';
import { closeShared, forkShared, removeFromDraft, restoreShared } from './versionChanges.ts';

const TABLES = 'tables';
const SCHEMA_PATCHES = 'schema_patches';

/**
 * The view changes of the `schemas` projection (contracts/views/viewSpecs.ts `schemaViews`) for `events` of the
 * streams `branch-*` and `organization-*` (branch deletion): table versions per branch, copy-on-write
 * (docs/reference/versioned-storage.md §1). The first change of a table in a draft forks the branch's shared version
 * into a draft version (`fromSeq = D`), or writes a partial version when the branch only inherits the table; later
 * changes update that draft version; `equalsHead` (from the decider) restores the shared version; a deletion writes
 * a tombstone. A new branch copies nothing. Pure and deterministic: the
 * projection worker and the write side's decision store apply the same changes.
 */
export function schemasViewChanges(events: readonly RecordedEvent[]): ViewChange[] {
  const batch: SchemasBatch = { changes: createChangeList(), drafted: new Set() };
  for (const recorded of events) applySchemasEvent(recorded, batch);
  return batch.changes.list();
}

type SchemasBatch = {
  /**
   * Row events only change a draft table's count: of several in one batch only the last count update of a draft
   * table version is kept (slot `draftKey`); an update that also sets other fields overwrites the count and drops
   * the pending one. Every other change is kept in order.
   */
  readonly changes: ChangeList;
  /**
   * Draft table versions this batch already created and has not removed since (key: branch, table, D): forking
   * them again would match nothing, so the fork is skipped. Never read from the view, so results do not depend on
   * where batches split.
   */
  readonly drafted: Set<string>;
};

const draftKey = (branchId: string, tableKey: string, draftSeq: number): string => JSON.stringify([branchId, tableKey, draftSeq]);

const tableScope = (branchId: string, tableKey: string) => fieldsEqual({ branchId, tableKey });

function pushAll(changes: ChangeList, list: readonly ViewChange[]): void {
  for (const change of list) changes.push(change);
}

/**
 * Applies a change of one table in the draft: fork on first change, then set the facts, or restore HEAD. A
 * count-only update (`set` empty: a row event) replaces the pending count update of the same draft version.
 */
function changeTable(batch: SchemasBatch, branchId: string, draftSeq: number, facts: TableFacts, set: ViewDoc): void {
  const { changes, drafted } = batch;
  const scope = tableScope(branchId, facts.tableKey);
  const key = draftKey(branchId, facts.tableKey, draftSeq);
  if (facts.equalsHead) {
    pushAll(changes, restoreShared(TABLES, scope, draftSeq));
    drafted.delete(key);
    return;
  }
  if (!drafted.has(key)) {
    // The branch's own shared version becomes the draft version; a table the branch only inherits gets a partial
    // version (docs/reference/versioned-storage.md §1: null fields come from the layer below).
    pushAll(changes, forkShared(TABLES, scope, draftSeq));
    changes.push({ op: 'insertIfAbsent', collection: TABLES, doc: partialVersion(branchId, facts.tableKey, draftSeq) });
    drafted.add(key);
  }
  const update: ViewChange = {
    op: 'update',
    collection: TABLES,
    filter: fieldsEqual({ branchId, tableKey: facts.tableKey, fromSeq: draftSeq }),
    set: { ...set, count: facts.count },
  };
  if (Object.keys(set).length === 0) {
    changes.pushLatest(key, update);
  } else {
    changes.dropLatest(key);
    changes.push(update);
  }
}

/** A table version with only its validity and count: the other fields are the next layer's. */
function partialVersion(branchId: string, tableKey: string, draftSeq: number): ViewDoc {
  return {
    branchId,
    tableKey,
    fromSeq: draftSeq,
    toSeq: OPEN_SEQ,
    tableId: null,
    schema: null,
    count: 0,
    createdAt: null,
    updatedAt: null,
    tombstone: null,
  };
}

function forgetBranch(batch: SchemasBatch, branchId: string): void {
  for (const key of batch.drafted) {
    if ((JSON.parse(key) as unknown[])[0] === branchId) batch.drafted.delete(key);
  }
}

/** The `schema_patches` document of a TableSchemaUpdated or DraftReverted (`patchEntryOf`), by stream revision. */
function keepPatchEntry(changes: ChangeList, branchId: string, recorded: RecordedEvent, event: DomainEvent): void {
  const entry = patchEntryOf(event);
  if (entry === null) return;
  const doc = { branchId, revision: recorded.revision, draftSeq: entry.draftSeq, tableKey: entry.tableKey, patches: entry.patches };
  changes.push({ op: 'upsert', collection: SCHEMA_PATCHES, doc });
}

function applySchemasEvent(recorded: RecordedEvent, batch: SchemasBatch): void {
  const time = recorded.metadata.time;
  const { changes } = batch;
  const event = domainEventOf(recorded);
  const branchId = streamEntityId(recorded.streamId);
  switch (event.type) {
    case 'TableCreated': {
      const d = event.data;
      if (d.table.equalsHead) {
        changeTable(batch, branchId, d.draftSeq, d.table, {});
        return;
      }
      changes.push(closeShared(TABLES, tableScope(branchId, d.tableKey), d.draftSeq));
      changes.push({
        op: 'upsert',
        collection: TABLES,
        doc: {
          branchId,
          tableKey: d.tableKey,
          fromSeq: d.draftSeq,
          toSeq: OPEN_SEQ,
          tableId: d.tableId,
          schema: d.schema,
          count: d.table.count,
          createdAt: time,
          updatedAt: time,
          tombstone: null,
        },
      });
      batch.drafted.add(draftKey(branchId, d.tableKey, d.draftSeq));
      return;
    }
    case 'TableSchemaUpdated': {
      const d = event.data;
      changeTable(batch, branchId, d.draftSeq, d.table, { tableId: d.tableId, schema: d.schema, updatedAt: time });
      keepPatchEntry(changes, branchId, recorded, event);
      return;
    }
    case 'TableRenamed': {
      const d = event.data;
      changeTable(batch, branchId, d.draftSeq, d.table, { tableId: d.tableId, updatedAt: time });
      for (const rewrite of d.schemaRewrites) {
        changeTable(batch, branchId, d.draftSeq, rewrite.table, { schema: rewrite.schema, updatedAt: time });
      }
      return;
    }
    case 'RowsCreated':
    case 'RowsUpdated':
    case 'RowsDeleted':
    case 'RowRenamed':
      // Rows change the count (and the table's equality with HEAD), never updatedAt.
      changeTable(batch, branchId, event.data.draftSeq, event.data.table, {});
      return;
    case 'TableDeleted': {
      // A tombstone hides the table in the layers below (and ends it on a branch that has none).
      const d = event.data;
      pushAll(changes, removeFromDraft(TABLES, tableScope(branchId, d.tableKey), d.draftSeq));
      changes.push({ op: 'upsert', collection: TABLES, doc: { ...partialVersion(branchId, d.tableKey, d.draftSeq), count: null, tombstone: true } });
      batch.drafted.delete(draftKey(branchId, d.tableKey, d.draftSeq));
      return;
    }
    case 'DraftReverted':
      pushAll(changes, restoreShared(TABLES, fieldsEqual({ branchId }), event.data.draftSeq));
      forgetBranch(batch, branchId);
      keepPatchEntry(changes, branchId, recorded, event);
      return;
    case 'BranchDeleted':
      // A deleted branch's revisions can never be read or branched from again; it has no child branches
      // (domain.md §3.6), so its own versions are all it frees.
      changes.push({ op: 'delete', collection: TABLES, filter: fieldsEqual({ branchId: event.data.branchId }) });
      changes.push({ op: 'delete', collection: SCHEMA_PATCHES, filter: fieldsEqual({ branchId: event.data.branchId }) });
      forgetBranch(batch, event.data.branchId);
      return;
    default:
      // RevisionCommitted moves no version: the draft's versions simply become HEAD's. BranchCreated writes nothing:
      // a branch reads its source's tables through its layers.
      return;
  }
}
