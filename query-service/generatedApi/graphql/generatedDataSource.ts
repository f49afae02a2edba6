import type { BulkResultView, JsonObject } from '../../../contracts/index.ts';
import type { TableChange, TableRowChange } from '../../changes/changeQueries.ts';
import type { ChangesSinceArgs } from '../../changes/changesSince.ts';

/**
 * A row as the generated APIs serve it (the REST row JSON of generated-api.md §7): `data` is the stored data with raw
 * foreign-key ids and every system-ref field filled.
 */
export type GeneratedRow = {
  readonly id: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly readonly: boolean;
  readonly data: JsonObject;
};

export type GeneratedPageInfo = {
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
};

/** A page of rows; `totalCount` is present when it was asked for. */
export type GeneratedPage = {
  readonly edges: readonly { readonly cursor: string; readonly node: GeneratedRow }[];
  readonly pageInfo: GeneratedPageInfo;
  readonly totalCount?: number;
};

/** The row query of generated-api.md §3 as the client sent it (plain JSON, not yet validated against the table). */
export type GeneratedListArgs = {
  readonly first?: number | null;
  readonly after?: string | null;
  readonly where?: unknown;
  readonly orderBy?: unknown;
};

/** A page of the `changes` feed (changes.md §3): row changes of every in-scope table, by (tableId, rowId). */
export type GeneratedChangePage = {
  readonly edges: readonly { readonly cursor: string; readonly node: TableRowChange }[];
  readonly pageInfo: GeneratedPageInfo;
  readonly totalCount: number;
};

export type GeneratedPatchOperation = { readonly op: 'replace'; readonly path: string; readonly value: unknown };
export type GeneratedRowInput = { readonly id: string; readonly data: unknown };
export type GeneratedPatchInput = { readonly id: string; readonly patches: readonly GeneratedPatchOperation[] };
export type GeneratedDeleteResult = { readonly id: string; readonly success: boolean };

/**
 * What the generated resolvers read and write, for ONE served revision (the endpoint's). `request` is the edge's
 * per-request object (principal, request id, consistency, …), passed through untouched. Every method runs the
 * per-field checks of auth.md §10 (table scope, write access, input validation, domain rules) and fails with
 * AppErrors; the access checks of steps 0–6 have run before execution.
 */
export interface GeneratedDataSource<TRequest> {
  /** The row, or null when the table has no such row in the revision. */
  getRow(request: TRequest, tableId: string, rowId: string): Promise<GeneratedRow | null>;
  /** A page of rows; counts matching rows only when `wantTotalCount` (the field was selected). */
  listRows(request: TRequest, tableId: string, args: GeneratedListArgs, wantTotalCount: boolean): Promise<GeneratedPage>;
  /**
   * Rows by id, in the order of `ids` (null where missing): one view query per call. Used (batched per request and
   * table) for foreign-key fields and `_entities`; fails as a whole when the caller may not read the table.
   */
  loadRowsByIds(request: TRequest, tableId: string, ids: readonly string[]): Promise<readonly (GeneratedRow | null)[]>;
  createRow(request: TRequest, tableId: string, input: GeneratedRowInput): Promise<GeneratedRow>;
  /** Full replace of `data`. */
  updateRow(request: TRequest, tableId: string, input: GeneratedRowInput): Promise<GeneratedRow>;
  patchRow(request: TRequest, tableId: string, input: GeneratedPatchInput): Promise<GeneratedRow>;
  deleteRow(request: TRequest, tableId: string, rowId: string): Promise<GeneratedDeleteResult>;
  /** Bulk writes are atomic (domain.md): all rows or none. */
  createRows(request: TRequest, tableId: string, rows: readonly GeneratedRowInput[]): Promise<BulkResultView>;
  updateRows(request: TRequest, tableId: string, rows: readonly GeneratedRowInput[]): Promise<BulkResultView>;
  patchRows(request: TRequest, tableId: string, rows: readonly GeneratedPatchInput[]): Promise<BulkResultView>;
  deleteRows(request: TRequest, tableId: string, rowIds: readonly string[]): Promise<BulkResultView>;
  /** Row changes between `since` (the served revision or an ancestor) and the served revision; tables out of scope left out. */
  changesSince(request: TRequest, args: ChangesSinceArgs): Promise<GeneratedChangePage>;
  /** Table changes between `since` and the served revision; tables out of scope left out. */
  tableChangesSince(request: TRequest, since: unknown): Promise<TableChange[]>;
}
