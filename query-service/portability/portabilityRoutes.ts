import express, { type Request, type Response, type Router } from 'express';
import { AppError } from '../../contracts/index.ts';
import type { Authenticator, CommandGateway, Principal, SystemStateSource, ViewStore } from '../../contracts/index.ts';
import { authenticate, requestContextOf } from '../http/authenticate.ts';
import { minPosition, type MinPositionOptions } from '../http/minPosition.ts';
import { sendJson } from '../http/sendJson.ts';
import { finishWrite, type WriteConsistencyOptions } from '../http/writeConsistency.ts';
import { flagParam, formatParam, streamTableExport } from './tableExport.ts';
import { importOptionsOf, runTableImport } from './tableImport.ts';
import { createTableRows } from './tableRows.ts';
import type { RowIndexes } from '../readers/rowIndexes.ts';
import { streamBundleExport } from './bundleExport.ts';
import { runBundleImport, type BundleImportOptions } from './bundleImport.ts';
import { PORTABILITY_ROUTES } from './portabilityOpenApi.ts';

export type PortabilityConfig = {
  /** IMPORT_MAX_BYTES (operations.md §1; default 1 GiB) and its configured text. */
  readonly importMaxBytes: number;
  readonly importMaxBytesText: string;
  /**
   * Table and bundle imports above one command are staged (versioned-storage.md §6): above how many rows (default
   * and maximum MAX_DRAFT_ROW_CHANGES) and in chunks of how many (default 5,000); `maxRows` lowers the 1,000,000 rows
   * one import may hold. Tests lower them to stage small files.
   */
  readonly stagedImport?: { readonly aboveRows: number; readonly chunkRows: number; readonly maxRows?: number };
};

export const PORTABILITY_DEFAULTS: PortabilityConfig = { importMaxBytes: 1024 ** 3, importMaxBytesText: '1gb' };

export type PortabilityDeps = {
  readonly viewStore: ViewStore;
  readonly systemState: SystemStateSource;
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  readonly minPosition: MinPositionOptions;
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  readonly config: PortabilityConfig;
  /** The row lists' indexes (an export reads a table in row id order). */
  readonly indexes: RowIndexes;
};

/** The byte and row limits of table and bundle imports, from the configuration. */
function importLimitsOf(config: PortabilityConfig) {
  const staged = config.stagedImport;
  return {
    maxBytes: config.importMaxBytes,
    maxBytesText: config.importMaxBytesText,
    ...(staged ? { stagedAboveRows: staged.aboveRows, chunkRows: staged.chunkRows } : {}),
    ...(staged?.maxRows !== undefined ? { maxRows: staged.maxRows } : {}),
  };
}

/** Who asks and for which table of which revision. */
export type TableTransferCall = {
  readonly req: Request;
  readonly res: Response;
  readonly principal: Principal;
  readonly requestId: string;
  readonly revisionId: string;
  readonly tableId: string;
};

/** How much of a refused upload is read and thrown away, and for how long, before the answer goes anyway. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Reads and throws away the rest of a refused upload (an unknown table, bad options, a CSV syntax error, a limit)
 * before the refusal is answered: true once it ended, false past DRAIN_MAX_BYTES or DRAIN_MAX_MS or when the client
 * went away. Answering first is allowed by HTTP, but Node closes the connection right after an answer when the
 * client asked for `Connection: close`, and a client still sending then fails on its write (EPIPE) and may never
 * read the answer: the CLI reported "cannot reach" instead of TABLE_NOT_FOUND.
 */
function discardRest(req: Request): Promise<boolean> {
  if (req.complete) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    const done = (ended: boolean): void => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      discarded += chunk.length;
      if (discarded > DRAIN_MAX_BYTES) done(false);
    };
    const onEnd = (): void => done(true);
    const onClose = (): void => done(req.complete);
    const timer = setTimeout(() => done(false), DRAIN_MAX_MS);
    req.on('data', onData).on('end', onEnd).on('close', onClose);
    req.resume();
  });
}

/**
 * A refusal with the body not read to its end (over the import limit, or past what discardRest reads): the rest is
 * discarded as it comes and the connection closed after the answer, so the next request on it is not read from the
 * middle of this body.
 */
function abandonBody(call: Pick<TableTransferCall, 'req' | 'res'>): void {
  if (call.req.complete) return;
  if (!call.res.headersSent) call.res.setHeader('Connection', 'close');
  call.req.resume();
}

/**
 * The request body as chunks. Stopping early must not destroy the request (that would reset the socket before the
 * refusal is answered): abandonBody drains the rest instead.
 */
const bodyOf = (req: Request): AsyncIterable<Buffer> => req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;

/**
 * Runs an import; any refusal, including one before the first byte of the body is read (bad options, an unknown
 * table, no permission, a declared size over the limit), reads the rest of a body under the limit before the answer
 * (discardRest) and abandons a larger one (abandonBody).
 */
async function draining(call: Pick<TableTransferCall, 'req' | 'res'>, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    const tooLarge = err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE';
    if (tooLarge || !(await discardRest(call.req))) abandonBody(call);
    throw err;
  }
}

const queryOf = (req: Request): URLSearchParams => new URL(req.originalUrl, 'http://localhost').searchParams;

/** Table export and import (portability.md §1-§2), shared by the system routes and the generated REST endpoints. */
export function createTableTransfer(deps: PortabilityDeps) {
  const rows = createTableRows(deps.viewStore, deps.indexes);
  return {
    async exportTable(call: TableTransferCall): Promise<void> {
      const params = queryOf(call.req);
      const options = { format: formatParam(params), meta: flagParam(params, 'meta') };
      const table = await rows.table(await deps.systemState.current(), call.principal, call.revisionId, call.tableId);
      await streamTableExport(call.res, rows, table, options);
    },

    importTable: (call: TableTransferCall): Promise<void> =>
      draining(call, async () => {
        const options = importOptionsOf(queryOf(call.req), call.req.headers['content-type']);
        const table = await rows.table(await deps.systemState.current(), call.principal, call.revisionId, call.tableId, true);
        const declared = Number(call.req.headers['content-length']);
        if (Number.isFinite(declared) && declared > deps.config.importMaxBytes) {
          throw new AppError('PAYLOAD_TOO_LARGE', `Import body exceeds ${deps.config.importMaxBytesText}`);
        }
        const importDeps = { gateway: deps.gateway, rows, ...importLimitsOf(deps.config) };
        const context = { principal: call.principal, correlationId: call.requestId };
        const { answer, outcome } = await runTableImport(importDeps, context, table, bodyOf(call.req), options);
        if (outcome !== null && outcome.position !== null) {
          await finishWrite(call.res, outcome.position, Object.assign({}, deps.consistency, { projections: outcome.projections }));
        }
        sendJson(call.res, 200, answer);
      }),
  };
}

export type TableTransfer = ReturnType<typeof createTableTransfer>;

function bundleOptionsOf(req: Request): BundleImportOptions {
  const media = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (media !== 'application/x-ndjson') throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/x-ndjson');
  const params = queryOf(req);
  const mode = params.get('mode') ?? 'replace';
  if (mode !== 'replace' && mode !== 'merge') {
    throw new AppError('BAD_USER_INPUT', 'mode must be replace or merge', [{ path: '/mode', message: 'must be replace or merge' }]);
  }
  return { mode, dryRun: flagParam(params, 'dryRun') };
}

/** Revision bundles (portability.md §3): export of a revision, import into a branch's draft. */
export function createBundleTransfer(deps: PortabilityDeps, now: () => Date = () => new Date()) {
  const rows = createTableRows(deps.viewStore, deps.indexes);
  return {
    async exportBundle(call: Omit<TableTransferCall, 'tableId'>): Promise<void> {
      await streamBundleExport(call.res, { rows, models: rows.models, now }, await deps.systemState.current(), call.principal, call.revisionId);
    },

    importBundle: (call: {
      readonly req: Request;
      readonly res: Response;
      readonly principal: Principal;
      readonly requestId: string;
    }): Promise<void> =>
      draining(call, async () => {
        const options = bundleOptionsOf(call.req);
        const params = call.req.params as Record<string, string>;
        const ref = { organizationId: params.organizationId ?? '', projectName: params.projectName ?? '', branchName: params.branchName ?? '' };
        const importDeps = { gateway: deps.gateway, rows, ...importLimitsOf(deps.config) };
        const context = { principal: call.principal, correlationId: call.requestId };
        const declared = Number(call.req.headers['content-length']);
        if (Number.isFinite(declared) && declared > deps.config.importMaxBytes) {
          throw new AppError('PAYLOAD_TOO_LARGE', `Import body exceeds ${deps.config.importMaxBytesText}`);
        }
        const state = await deps.systemState.current();
        const { answer, outcome } = await runBundleImport(importDeps, context, state, ref, bodyOf(call.req), options);
        if (outcome !== null && outcome.position !== null) {
          await finishWrite(call.res, outcome.position, Object.assign({}, deps.consistency, { projections: outcome.projections }));
        }
        sendJson(call.res, 200, answer);
      }),
  };
}

/**
 * The system REST routes of portability.md §1-§3 (below `/api`, each authenticated like the route table's), at the
 * paths PORTABILITY_ROUTES gives the system OpenAPI document.
 */
export function createPortabilityRouter(deps: PortabilityDeps, transfer: TableTransfer = createTableTransfer(deps)): Router {
  const router = express.Router();
  const signedIn = authenticate(deps.authenticator);
  const callOf = (req: Request, res: Response): TableTransferCall => {
    const { principal, requestId } = requestContextOf(res);
    const params = req.params as Record<string, string>;
    return { req, res, principal, requestId, revisionId: params.revisionId ?? '', tableId: params.tableId ?? '' };
  };
  const { exportTable, importTable, exportBundle, importBundle } = PORTABILITY_ROUTES;
  router.get(exportTable.path, signedIn, minPosition(deps.minPosition), (req, res) => transfer.exportTable(callOf(req, res)));
  router.post(importTable.path, signedIn, (req, res) => transfer.importTable(callOf(req, res)));
  const bundles = createBundleTransfer(deps);
  router.get(exportBundle.path, signedIn, minPosition(deps.minPosition), (req, res) => bundles.exportBundle(callOf(req, res)));
  router.post(importBundle.path, signedIn, (req, res) => bundles.importBundle(callOf(req, res)));
  return router;
}
