import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../../../contracts/index.ts';
import type { Authenticator, SystemStateSource } from '../../../contracts/index.ts';
import type { MinPositionOptions } from '../../http/minPosition.ts';
import { notFound } from '../../http/routeFallbacks.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import { principalAndState } from './requestState.ts';
import { sendError } from '../../http/sendError.ts';
import { finishWrite, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import { createGeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { ServedTablesLoader } from '../dataSource/servedTables.ts';
import { resolveServedEndpoint, type EndpointAddress } from '../endpoint/servedEndpoint.ts';
import { assertWriteAccess, createRestHandlers, type RestHandlerDeps } from './restHandlers.ts';
import { REST_BASE_TEMPLATE, allowOf, entryOf, matchRestPath } from './restRoutes.ts';

export type GeneratedRestDeps = RestHandlerDeps & {
  readonly systemState: SystemStateSource;
  readonly authenticator: Authenticator;
  readonly minPosition: MinPositionOptions;
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  readonly loadTables: ServedTablesLoader;
};

function addressOf(req: Request): EndpointAddress {
  const params = req.params as Record<string, string>;
  return { kind: 'rest', org: params.org ?? '', project: params.project ?? '', branch: params.branch ?? '', segment: params.mode ?? '' };
}

/** Decoded path segments below `B` (express 5 gives a splat as an array). */
function segmentsOf(req: Request): string[] {
  const rest = (req.params as Record<string, unknown>).rest;
  if (rest === undefined) return [];
  return (Array.isArray(rest) ? rest.map(String) : [String(rest)]).filter((segment) => segment !== '');
}

/**
 * A generated REST endpoint (generated-api.md §7), mounted for `B{/*rest}`: the path is matched first (404
 * ROUTE_NOT_FOUND), then credentials, the read-your-writes wait and the endpoint's access checks (auth.md §10 steps
 * 1-6), then the method: undefined -> 405 METHOD_NOT_ALLOWED with the path's `Allow`; a write on a HEAD or pinned
 * endpoint -> 405 READ_ONLY_ENDPOINT (step 7); writes check table scope and write access before their body.
 */
export function createGeneratedRestHandler(deps: GeneratedRestDeps): RequestHandler {
  const handlers = createRestHandlers(deps);
  return async (req: Request, res: Response): Promise<void> => {
    try {
      const path = matchRestPath(segmentsOf(req));
      if (path === null) {
        setRouteTemplate(res, `${REST_BASE_TEMPLATE}/(unmatched)`);
        notFound(req, res);
        return;
      }
      setRouteTemplate(res, path.template);
      const { principal, state } = await principalAndState(deps, req, res);
      const served = resolveServedEndpoint(state, principal, addressOf(req), path.readSubject);
      const writable = served.mode === 'draft';
      const entry = entryOf(path, req.method);
      if (entry === undefined) {
        const allow = allowOf(path, writable);
        throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, undefined, { Allow: allow });
      }
      if (entry.write && !writable) throw new AppError('READ_ONLY_ENDPOINT', undefined, undefined, { Allow: allowOf(path, false) });
      const request = createGeneratedRequest({
        principal,
        requestId: res.locals.requestId ?? 'unknown',
        state,
        served,
        tables: await deps.loadTables(served.scope, state.position),
        afterWrite: async (outcome) => {
          if (outcome.position !== null)
            await finishWrite(res, outcome.position, Object.assign({}, deps.consistency, { projections: outcome.projections }));
        },
      });
      const call = { req, res, request, path };
      assertWriteAccess(call, entry.action);
      await handlers[entry.action](call);
    } catch (err) {
      sendError(res, err);
    }
  };
}
