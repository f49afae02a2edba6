import { AppError, OPEN_SEQ, createBoundedCache, layersAt, maxPosition, revisionLayers, streamCategories } from '../../contracts/index.ts';
import type {
  BranchRecord,
  ChangeEventSource,
  ChangeEventType,
  ConsistencyWaiter,
  DomainEvent,
  Position,
  RecordedEvent,
  RoutedChangeEvent,
  SystemState,
  SystemStateSource,
  ViewStore,
} from '../../contracts/index.ts';
import { actorIdOf, createChangeQueries, type ChangeQueries } from './changeQueries.ts';
import { createChangeReader } from './changeReader.ts';
import { and, eq, not } from '../paging/filters.ts';
import { createCatalogReader } from '../readers/catalogReader.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { createTableModels } from '../readers/tableModels.ts';

/** Projections a commit's `changes` and table ids are read from. */
const READ_PROJECTIONS = ['schemas', 'rows'] as const;
/** `rowIds` listed per `rows.changed` (changes.md §6.3). */
const MAX_ROW_IDS = 1000;
/** Described events kept by log position, so the streams and the dispatcher that read the same events describe them once. */
const MEMO_SIZE = 2000;
/** Bytes a described event is counted at in the memo (kept as a promise, so not measured). */
const MEMO_ENTRY_BYTES = 1024;

type Described = { type: ChangeEventType; branch: BranchRecord; data: Record<string, unknown>; tableIds: string[] | null };

const rowChange: Partial<Record<DomainEvent['type'], string>> = {
  RowsCreated: 'ADDED',
  RowsUpdated: 'UPDATED',
  RowsDeleted: 'REMOVED',
  RowRenamed: 'RENAMED',
};
const tableChange: Partial<Record<DomainEvent['type'], string>> = {
  TableCreated: 'ADDED',
  TableSchemaUpdated: 'UPDATED',
  TableRenamed: 'RENAMED',
  TableDeleted: 'REMOVED',
};

/**
 * Log events -> change events of changes.md §6.3 for the feed and webhooks. Names come from the system state (which
 * keeps deleted branches), a commit's `changes` is the revision diff against its parent read from the views, so it
 * first waits until `schemas` and `rows` have reached the events. Table ids of row events come from the table events
 * seen so far, else from the `schemas` view (the id the table has now in that draft).
 */
export function createChangeEventSource(deps: {
  readonly viewStore: ViewStore;
  readonly systemState: SystemStateSource;
  readonly waiter: ConsistencyWaiter;
  readonly timeoutMs?: number;
}): ChangeEventSource {
  const { viewStore, systemState, waiter } = deps;
  const schemas = createSchemaReader(viewStore);
  const queries: ChangeQueries = createChangeQueries({
    schemas,
    changes: createChangeReader(viewStore),
    catalog: createCatalogReader(viewStore),
    models: createTableModels(),
  });
  const tableIds = new Map<string, string>();

  /**
   * The id a table has now in the branch's draft, else the latest it had: the newest version naming an id in the
   * branch, then in the branches below it as of their fork points (partial versions and tombstones name none).
   */
  async function tableIdOf(state: SystemState, branch: BranchRecord, tableKey: string): Promise<string> {
    const known = tableIds.get(`${branch.id}/${tableKey}`);
    if (known !== undefined) return known;
    const draft = state.revisions.get(branch.draftRevisionId);
    const layers = draft === undefined ? [{ branchId: branch.id, seq: OPEN_SEQ }] : layersAt(revisionLayers(state, draft), OPEN_SEQ);
    for (const layer of layers) {
      const [doc] = await viewStore.find('schemas', 'tables', {
        filter: and(
          eq('branchId', layer.branchId),
          eq('tableKey', tableKey),
          { kind: 'compare', ref: { field: 'fromSeq' }, op: 'lte', value: layer.seq },
          not(eq('tableId', null)),
        ),
        orderBy: [{ ref: { field: 'fromSeq' }, direction: 'desc' }],
        limit: 1,
      });
      if (doc !== undefined) return doc.tableId as string;
    }
    return tableKey;
  }

  async function describeBranchEvent(
    state: SystemState,
    recorded: RecordedEvent,
    branch: BranchRecord,
    actorId: string | null,
  ): Promise<Described | null> {
    const event = { type: recorded.type, data: recorded.data } as DomainEvent;
    const base = { organizationId: branch.organizationId, projectName: state.projects.get(branch.projectId)?.name ?? null, branchName: branch.name };
    switch (event.type) {
      case 'RevisionCommitted': {
        const d = event.data;
        const target = state.revisions.get(d.revisionId);
        const parentId = branch.revisionIds[d.seq - 1] ?? null;
        const parent = parentId === null ? null : (state.revisions.get(parentId) ?? null);
        if (!target) return null;
        const changes = await queries.revisionChanges(state, target, parent, () => true);
        const data = {
          ...base,
          projectId: d.projectId,
          revisionId: d.revisionId,
          parentRevisionId: parentId,
          comment: d.comment,
          committedAt: recorded.metadata.time,
          actorId,
          changes,
        };
        return { type: 'revision.committed', branch, data, tableIds: changes.tables.map((t) => t.tableId) };
      }
      case 'MergeRecorded': {
        // merge.md §5: described from the merge's record; its row and table events are described on their own.
        const d = event.data;
        const { draftRevisionId, sourceRevisionId, baseRevisionId, totalRowChanges } = d;
        return {
          type: 'branch.merged',
          branch,
          data: { ...base, draftRevisionId, sourceRevisionId, baseRevisionId, totalRowChanges, actorId },
          tableIds: null,
        };
      }
      case 'DraftReverted':
        return { type: 'draft.reverted', branch, data: { ...base, draftRevisionId: event.data.draftRevisionId, actorId }, tableIds: null };
      case 'TableCreated':
      case 'TableSchemaUpdated':
      case 'TableRenamed':
      case 'TableDeleted': {
        const d = event.data;
        tableIds.set(`${branch.id}/${d.tableKey}`, d.tableId);
        const previousTableId = event.type === 'TableRenamed' ? event.data.previousTableId : null;
        const data = { ...base, draftRevisionId: d.draftRevisionId, tableId: d.tableId, previousTableId, change: tableChange[event.type], actorId };
        return { type: 'table.changed', branch, data, tableIds: [d.tableId, ...(previousTableId ? [previousTableId] : [])] };
      }
      case 'RowsCreated':
      case 'RowsUpdated':
      case 'RowsDeleted':
      case 'RowRenamed': {
        const d = event.data;
        const tableId = await tableIdOf(state, branch, d.tableKey);
        const ids =
          event.type === 'RowsDeleted'
            ? event.data.rowIds
            : event.type === 'RowRenamed'
              ? [event.data.row.rowId]
              : event.data.rows.map((r) => r.rowId);
        const previous = event.type === 'RowRenamed' ? { previousRowIds: [event.data.rowId] } : {};
        const data = {
          ...base,
          draftRevisionId: d.draftRevisionId,
          tableId,
          change: rowChange[event.type],
          rowIds: ids.slice(0, MAX_ROW_IDS),
          ...previous,
          actorId,
        };
        return { type: 'rows.changed', branch, data, tableIds: [tableId] };
      }
      default:
        return null;
    }
  }

  function describeOrganizationEvent(state: SystemState, recorded: RecordedEvent, actorId: string | null): Described | null {
    const event = { type: recorded.type, data: recorded.data } as DomainEvent;
    if (event.type !== 'BranchCreated' && event.type !== 'BranchDeleted') return null;
    const branch = state.branches.get(event.data.branchId);
    if (!branch) return null;
    const parentBranch = branch.parent === null ? null : (state.branches.get(branch.parent.branchId) ?? null);
    const revisionId = event.type === 'BranchCreated' ? event.data.sourceRevisionId : branch.headRevisionId;
    const data = {
      organizationId: branch.organizationId,
      projectName: state.projects.get(branch.projectId)?.name ?? null,
      branchName: branch.name,
      parentBranchName: parentBranch?.name ?? null,
      revisionId,
      actorId,
    };
    return { type: event.type === 'BranchCreated' ? 'branch.created' : 'branch.deleted', branch, data, tableIds: null };
  }

  /** Describes events in log order (a row event's table id may come from a table event before it). */
  async function describeFresh(events: readonly RecordedEvent[]): Promise<(RoutedChangeEvent | null)[]> {
    const last = events.reduce<Position | null>((max, e) => maxPosition(max, e.position), null) as Position;
    if (!(await waiter.waitFor(last, deps.timeoutMs ?? 10_000, READ_PROJECTIONS))) {
      throw new AppError('CONSISTENCY_TIMEOUT', 'views did not reach the events to describe in time');
    }
    const state = await systemState.current();
    const out: (RoutedChangeEvent | null)[] = [];
    for (const recorded of events) {
      const actorId = actorIdOf(state, recorded.metadata.principal);
      const category = recorded.streamId.slice(0, recorded.streamId.indexOf('-'));
      const branch = category === streamCategories.branch ? state.branches.get(recorded.streamId.slice('branch-'.length)) : undefined;
      const described =
        category === streamCategories.organization
          ? describeOrganizationEvent(state, recorded, actorId)
          : branch
            ? await describeBranchEvent(state, recorded, branch, actorId)
            : null;
      if (described === null) {
        out.push(null);
        continue;
      }
      const project = state.projects.get(described.branch.projectId);
      out.push({
        payload: { type: described.type, position: recorded.position, timestamp: recorded.metadata.time, data: described.data },
        organizationId: described.branch.organizationId,
        projectId: described.branch.projectId,
        projectName: project?.name ?? '',
        branchName: described.branch.name,
        branchIsRoot: described.branch.isRoot,
        tableIds: described.tableIds,
      });
    }
    return out;
  }

  // Described events are promises when kept, so each is counted at a fixed MEMO_ENTRY_BYTES (a change event with its
  // routing: ids, table keys, a position).
  const memo = createBoundedCache<Position, Promise<RoutedChangeEvent | null>>({
    maxEntries: MEMO_SIZE,
    maxBytes: 4 * 1024 * 1024,
    sizeOf: () => MEMO_ENTRY_BYTES,
  });

  return {
    categories: [streamCategories.branch, streamCategories.organization],
    async describe(events) {
      const missing = events.filter((e) => !memo.has(e.position));
      const fresh = missing.length > 0 ? describeFresh(missing) : null;
      const ours = new Map(events.map((e) => [e.position, memo.get(e.position)]));
      if (fresh !== null) {
        // A failure (views not there in time) is not remembered: the next reader tries again.
        fresh.catch(() => missing.forEach((e) => memo.delete(e.position)));
        missing.forEach((e, i) => {
          const one = fresh.then((described) => described[i] ?? null);
          ours.set(e.position, one);
          memo.set(e.position, one);
        });
      }
      const described = await Promise.all(events.map((e) => ours.get(e.position) as Promise<RoutedChangeEvent | null>));
      return described.filter((e): e is RoutedChangeEvent => e !== null);
    },
  };
}
