import type { Logger } from 'pino';
import { fieldIndex as fieldIndexAt } from '../../contracts/index.ts';
import type { IndexedField, SortIndex, SortKey, TableModel, ViewStore } from '../../contracts/index.ts';

/** Distinct row sorts indexed per process; each index costs every row write a little, so their number is bounded. */
export const MAX_ROW_INDEXES = 100;

/** Row lists filter on (branchId, tableKey) by equality and sort by their keys: the index leads with both. */
const ROW_EQUAL: readonly string[] = ['branchId', 'tableKey'];

/** Distinct declared field paths indexed per process (a table has at most 10, domain.md §5.5). */
export const MAX_FIELD_INDEXES = 500;

/** The view index of an `x-index` / `x-unique` field (contracts/views/fieldIndex.ts, shared with the write side). */
export function fieldIndex(field: IndexedField): SortIndex {
  return fieldIndexAt(field.dataPath);
}

/**
 * Indexes for row lists (system REST/GraphQL, MCP and the generated endpoints alike: rowReader.ts), created on first
 * use (docs/reference/performance.md: an unindexed sort over 100k rows costs 100+ ms): the first list with a given order (json path,
 * cast and direction per key, then the id tiebreaker) asks the view store for an index over exactly that order.
 * Filters are evaluated while reading the sort index; they get no index of their own, because the planner would then
 * prefer it and sort the matches in a temporary B-tree. The list does not wait for the build (34 s at a million
 * rows; the view store builds off the event loop where it can): until the index exists lists run without it, under
 * the read budget (QUERY_TIMEOUT_MS). A failure is logged and lists are served without the index.
 */
export function createRowIndexes(store: ViewStore, log: Logger) {
  const ensured = new Map<string, Promise<void>>();
  const fields = new Map<string, Promise<void>>();
  let warnedFull = false;
  let warnedFields = false;

  return {
    /**
     * The indexes of a table's declared fields, created on the first read of the table after the schema declared
     * them (and, by completeVersion, on every rebuilt version): like sort indexes, view store indexes are per
     * collection, so every copy-on-write branch reads them.
     */
    async ensureFields(model: TableModel): Promise<void> {
      if (model.indexedFields.length === 0) return;
      const version = await store.activeVersion('rows');
      const pending: Promise<void>[] = [];
      for (const field of model.indexedFields) {
        const index = fieldIndex(field);
        const id = `${version}:${JSON.stringify(index.sort)}`;
        let done = fields.get(id);
        if (done === undefined) {
          if (fields.size >= MAX_FIELD_INDEXES) {
            if (!warnedFields) log.warn({ max: MAX_FIELD_INDEXES }, 'field index limit reached; further declared fields are not indexed');
            warnedFields = true;
            continue;
          }
          done = store.ensureIndex('rows', 'rows', index).catch((err: unknown) => {
            log.warn({ err, index: id }, 'field index could not be created');
          });
          fields.set(id, done);
        }
        pending.push(done);
      }
      await Promise.all(pending);
    },

    async ensure(keys: readonly SortKey[]): Promise<void> {
      const index: SortIndex = { equal: ROW_EQUAL, sort: keys.map((k) => ({ ref: k.ref, direction: k.direction })) };
      // A rebuild activates a new, unindexed version of the rows projection.
      const id = `${await store.activeVersion('rows')}:${JSON.stringify(index.sort)}`;
      let pending = ensured.get(id);
      if (pending === undefined) {
        if (ensured.size >= MAX_ROW_INDEXES) {
          if (!warnedFull) log.warn({ max: MAX_ROW_INDEXES }, 'row index limit reached; further sorts are not indexed');
          warnedFull = true;
          return;
        }
        pending = store.ensureIndex('rows', 'rows', index).catch((err: unknown) => {
          log.warn({ err, index: id }, 'row index could not be created');
        });
        ensured.set(id, pending);
      }
      await pending;
    },
  };
}

export type RowIndexes = ReturnType<typeof createRowIndexes>;
