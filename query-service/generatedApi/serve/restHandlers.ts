import type { Request, Response } from 'express';
import { AppError, assertCanWrite, assertTableScope, tableInScope } from '../../../contracts/index.ts';
import type { Action } from '../../../contracts/index.ts';
import { jsonTextOf, sendJson, sendJsonText } from '../../http/sendJson.ts';
import type { GeneratedPage } from '../graphql/generatedDataSource.ts';
import { tableView } from '../../readers/schemaReader.ts';
import type { GeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { EndpointDataSource } from '../dataSource/endpointDataSource.ts';
import type { OpenApiCache } from './restDocs.ts';
import type { TableTransfer, TableTransferCall } from '../../portability/portabilityRoutes.ts';
import { changesQueryOf, listQueryOf, restInput } from './restInput.ts';
import type { RestAction, RestPath } from './restRoutes.ts';

/** One generated REST request after endpoint resolution and the read-access checks. */
export type RestCall = {
  readonly req: Request;
  readonly res: Response;
  readonly request: GeneratedRequest;
  readonly path: RestPath;
};

export type RestHandlerDeps = {
  readonly dataSource: EndpointDataSource;
  readonly openApi: OpenApiCache;
  readonly sendDocs: (res: Response, title: string) => void;
  readonly transfer: TableTransfer;
};

/** The permission each write needs (domain.md §8.1), checked before its input (auth.md §10 steps 8, 9). */
const WRITE_ACTIONS: Partial<Readonly<Record<RestAction, Action>>> = {
  create: 'create',
  bulkCreate: 'create',
  updateRow: 'update',
  patchRow: 'update',
  bulkUpdate: 'update',
  bulkPatch: 'update',
  deleteRow: 'delete',
  bulkDelete: 'delete',
  // An import in the default mode creates rows; ApplyDraftChanges checks what the mode needs besides.
  import: 'create',
};

/** Steps 5 (table scope) and 8 (write access) of a write, before its body is looked at. */
export function assertWriteAccess(call: RestCall, action: RestAction): void {
  const permission = WRITE_ACTIONS[action];
  if (permission === undefined) return;
  const { request } = call;
  assertTableScope(request.principal, call.path.tableId ?? '');
  const { project } = request.served;
  assertCanWrite(request.state, request.principal, permission, 'Row', { organizationId: project.organizationId, projectId: project.id });
}

const tableOf = (call: RestCall): string => call.path.tableId ?? '';

/** The served revision's table for the shared export and import. */
function transferCall(call: RestCall): TableTransferCall {
  const { principal, requestId, served } = call.request;
  return { req: call.req, res: call.res, principal, requestId, revisionId: served.revisionId, tableId: tableOf(call) };
}
const rowOf = (call: RestCall): string => call.path.rowId ?? '';

/** `JSON.stringify(page)` with the edges serialized once per kept page (see jsonTextOf). */
function pageText(page: GeneratedPage): string {
  const count = page.totalCount === undefined ? '' : `,"totalCount":${JSON.stringify(page.totalCount)}`;
  return `{"edges":${jsonTextOf(page.edges)},"pageInfo":${JSON.stringify(page.pageInfo)}${count}}`;
}

/**
 * The first row of each table the caller may read, by table id in table order: the OpenAPI document's examples
 * name them (openApiExamples.ts), so Swagger UI's "Try it out" reads a row that exists. Other tables get none.
 */
async function exampleRowIds(source: EndpointDataSource, request: GeneratedRequest): Promise<ReadonlyMap<string, string>> {
  const readable = request.tables.list.map((table) => table.version.tableId).filter((tableId) => tableInScope(request.principal, tableId));
  const firsts = await Promise.all(readable.map(async (tableId) => (await source.list(request, tableId, { first: 1 }, false)).edges[0]?.node.id));
  return new Map(readable.flatMap((tableId, i) => (firsts[i] === undefined ? [] : [[tableId, firsts[i]] as const])));
}

/** The handlers of generated-api.md §7 by action; errors propagate to the caller (REST error body). */
export function createRestHandlers(deps: RestHandlerDeps): Readonly<Record<RestAction, (call: RestCall) => Promise<void>>> {
  const source = deps.dataSource;
  return {
    async endpoint({ res, request }) {
      const { project, branch, mode, revisionId } = request.served;
      const body = {
        organizationId: project.organizationId,
        projectName: project.name,
        branchName: branch.name,
        mode,
        revisionId,
        readOnly: mode !== 'draft',
      };
      sendJson(res, 200, body);
    },
    async openapi({ res, request }) {
      sendJson(res, 200, deps.openApi.get(request.served, request.tables, await exampleRowIds(source, request)));
    },
    async docs({ res, request }) {
      const { address } = request.served;
      deps.sendDocs(res, `Strata ${address.org}/${address.project}/${address.branch} (${address.segment})`);
    },
    async tables({ res, request }) {
      const tables = request.tables.list
        .filter((table) => tableInScope(request.principal, table.version.tableId))
        .map((table) => tableView(table.version, request.served.scope));
      sendJson(res, 200, { tables });
    },
    async schema(call) {
      const tableId = tableOf(call);
      assertTableScope(call.request.principal, tableId);
      const table = call.request.tables.byId.get(tableId);
      if (table === undefined) throw new AppError('TABLE_NOT_FOUND', `Table "${tableId}" not found in the revision`);
      sendJson(call.res, 200, table.version.schema);
    },
    async list(call) {
      sendJsonText(call.res, 200, pageText(await source.list(call.request, tableOf(call), listQueryOf(call.req), true)));
    },
    async query(call) {
      sendJsonText(call.res, 200, pageText(await source.list(call.request, tableOf(call), restInput.query(call.req.body), true)));
    },
    async getRow(call) {
      const row = await source.getRow(call.request, tableOf(call), rowOf(call));
      if (row === null) throw new AppError('ROW_NOT_FOUND', `Row "${rowOf(call)}" not found in table "${tableOf(call)}"`);
      sendJsonText(call.res, 200, jsonTextOf(row));
    },
    async create(call) {
      sendJson(call.res, 201, await source.createRow(call.request, tableOf(call), restInput.create(call.req.body)));
    },
    async updateRow(call) {
      sendJson(call.res, 200, await source.updateRow(call.request, tableOf(call), restInput.update(call.req.body, rowOf(call))));
    },
    async patchRow(call) {
      sendJson(call.res, 200, await source.patchRow(call.request, tableOf(call), restInput.patch(call.req.body, rowOf(call))));
    },
    async deleteRow(call) {
      sendJson(call.res, 200, await source.deleteRow(call.request, tableOf(call), rowOf(call)));
    },
    async bulkCreate(call) {
      sendJson(call.res, 201, await source.createRows(call.request, tableOf(call), restInput.bulkRows(call.req.body)));
    },
    async bulkUpdate(call) {
      sendJson(call.res, 200, await source.updateRows(call.request, tableOf(call), restInput.bulkRows(call.req.body)));
    },
    async bulkPatch(call) {
      sendJson(call.res, 200, await source.patchRows(call.request, tableOf(call), restInput.bulkPatches(call.req.body)));
    },
    async bulkDelete(call) {
      sendJson(call.res, 200, await source.deleteRows(call.request, tableOf(call), restInput.bulkIds(call.req.body)));
    },
    async changes(call) {
      sendJson(call.res, 200, await source.changesSince(call.request, changesQueryOf(call.req)));
    },
    async export(call) {
      await deps.transfer.exportTable(transferCall(call));
    },
    async import(call) {
      await deps.transfer.importTable(transferCall(call));
    },
    async changedTables(call) {
      sendJson(call.res, 200, await source.tableChangesSince(call.request, changesQueryOf(call.req).since));
    },
  };
}
