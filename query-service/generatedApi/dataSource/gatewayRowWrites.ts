import { AppError, invariant, isAppError } from '../../../contracts/index.ts';
import type { BulkResultView, CommandGateway, CommandInput, CommandResult, CommandType, RowView } from '../../../contracts/index.ts';
import type { GeneratedDataSource, GeneratedPatchInput, GeneratedRow, GeneratedRowInput } from '../graphql/generatedDataSource.ts';
import type { GeneratedRequest } from './generatedRequest.ts';

type WriteMethods = Pick<
  GeneratedDataSource<GeneratedRequest>,
  'createRow' | 'updateRow' | 'patchRow' | 'deleteRow' | 'createRows' | 'updateRows' | 'patchRows' | 'deleteRows'
>;

function onlyRow(rows: readonly RowView[]): GeneratedRow {
  const [row] = rows;
  invariant(row !== undefined, 'a single-row write returns its row');
  return { id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt, readonly: row.readonly, data: row.data };
}

const affected = (rows: readonly RowView[]): BulkResultView => ({ success: true, count: rows.length });

/** Command inputs name row ids `rowId`/`rowIds`; the generated inputs (GraphQL `data`, REST bodies) `id`/`ids`. */
function inGeneratedTerms(err: unknown): unknown {
  if (!isAppError(err, 'BAD_USER_INPUT') || err.details === undefined) return err;
  const rename = (path: unknown) =>
    typeof path === 'string' ? path.replace(/^\/rowIds(?=\/|$)/, '/ids').replace(/^(\/rows\/\d+)\/rowId$/, '$1/id') : path;
  const details = err.details.map((detail) => Object.assign({}, detail, { path: rename(detail.path) }));
  return new AppError(err.code, err.message.replace(/^rowIds\b/, 'ids'), details, err.headers);
}
const dataRows = (rows: readonly GeneratedRowInput[]) => rows.map((row) => ({ rowId: row.id, data: row.data }));
const patchRows = (rows: readonly GeneratedPatchInput[]) => rows.map((row) => ({ rowId: row.id, patches: row.patches }));

/**
 * Writes of a draft endpoint through the command gateway, which runs the per-field checks of auth.md §10 (table
 * scope, write access: anonymous 401, read-only key API_KEY_READ_ONLY, missing permission FORBIDDEN), validation
 * and the domain rules. Single-row writes are the bulk commands with one row and `bulk: false` (errors then carry
 * no `index`) and return the resulting row; bulk writes are atomic and return the number of rows affected.
 */
export function createGatewayRowWrites(gateway: CommandGateway): WriteMethods {
  async function run<K extends CommandType>(
    request: GeneratedRequest,
    type: K,
    input: Omit<CommandInput<K>, 'revisionId'>,
  ): Promise<CommandResult<K>> {
    // HEAD and pinned schemas have no mutations and their REST routes answer 405 first; this is the last guard.
    if (request.served.mode !== 'draft') throw new AppError('READ_ONLY_ENDPOINT');
    const full = Object.assign({}, input, { revisionId: request.served.revisionId }) as CommandInput<K>;
    let outcome;
    try {
      outcome = await gateway.execute(type, full, { principal: request.principal, correlationId: request.requestId });
    } catch (err) {
      throw inGeneratedTerms(err);
    }
    await request.afterWrite(outcome);
    return outcome.result;
  }

  return {
    async createRow(request, tableId, row) {
      return onlyRow(await run(request, 'CreateRows', { tableId, rows: dataRows([row]), bulk: false }));
    },
    async updateRow(request, tableId, row) {
      return onlyRow(await run(request, 'UpdateRows', { tableId, rows: dataRows([row]), bulk: false }));
    },
    async patchRow(request, tableId, row) {
      return onlyRow(await run(request, 'PatchRows', { tableId, rows: patchRows([row]), bulk: false }));
    },
    async deleteRow(request, tableId, rowId) {
      await run(request, 'DeleteRows', { tableId, rowIds: [rowId], bulk: false });
      return { id: rowId, success: true };
    },
    async createRows(request, tableId, rows) {
      return affected(await run(request, 'CreateRows', { tableId, rows: dataRows(rows), bulk: true }));
    },
    async updateRows(request, tableId, rows) {
      return affected(await run(request, 'UpdateRows', { tableId, rows: dataRows(rows), bulk: true }));
    },
    async patchRows(request, tableId, rows) {
      return affected(await run(request, 'PatchRows', { tableId, rows: patchRows(rows), bulk: true }));
    },
    async deleteRows(request, tableId, rowIds) {
      return run(request, 'DeleteRows', { tableId, rowIds, bulk: true });
    },
  };
}
