import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, createBoundedCache, keyScopeOf, maxPosition } from '../../../contracts/index.ts';
import type { Authenticator, Position, SystemStateSource } from '../../../contracts/index.ts';
import { createGraphqlErrorFormatter, sendGraphqlError } from '../../graphqlKit/graphqlErrors.ts';
import { assertQueryText } from '../../graphqlKit/queryLimits.ts';
import type { MinPositionOptions } from '../../http/minPosition.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import { principalAndState } from './requestState.ts';
import { sendJsonText } from '../../http/sendJson.ts';
import type { Finality } from '../dataSource/finality.ts';
import { awaitWriteConsistency, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import { createGeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { ServedTablesLoader } from '../dataSource/servedTables.ts';
import { resolveServedEndpoint, type EndpointAddress } from '../endpoint/servedEndpoint.ts';
import { executeGenerated } from './executeGenerated.ts';
import type { GeneratedSchemaCache } from './generatedSchemaCache.ts';
import type { GraphqlIdePage } from '../../pages/graphqlIdePage.ts';
import { graphqlParamsOf, rawQueryOf } from './graphqlParams.ts';

export const GRAPHQL_TEMPLATE = '/endpoint/graphql/:org/:project/:branch/:mode';

export type GeneratedGraphqlDeps = {
  readonly systemState: SystemStateSource;
  readonly authenticator: Authenticator;
  readonly minPosition: MinPositionOptions;
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  readonly loadTables: ServedTablesLoader;
  readonly schemas: GeneratedSchemaCache;
  readonly ide: GraphqlIdePage;
  readonly log: Logger;
  /** Whether a projection passed a position (committed results are kept once `rows` passed the state's). */
  readonly isFinal: Finality;
};

const ALLOWED = 'GET, HEAD, POST';
/** Results of queries on committed revisions kept in memory: entries, and bytes (keys hold the query texts). */
export const GRAPHQL_RESULTS_CACHE = { maxEntries: 2_000, maxBytes: 32 * 1024 * 1024 };

function addressOf(req: Request): EndpointAddress {
  const params = req.params as Record<string, string>;
  return { kind: 'graphql', org: params.org ?? '', project: params.project ?? '', branch: params.branch ?? '', segment: params.mode ?? '' };
}

/**
 * A generated GraphQL endpoint (generated-api.md §5.3): per HTTP request the transport checks, credentials,
 * read-your-writes wait and the endpoint's access checks (auth.md §10 steps 0-6; failures answer in the envelope of
 * errors.md §3.1 with their status), then the IDE page (GET without `query`) or the execution on the schema of the
 * revision the endpoint serves now.
 */
export function createGeneratedGraphqlHandler(deps: GeneratedGraphqlDeps): RequestHandler {
  const format = createGraphqlErrorFormatter(deps.log);
  // A committed revision never changes once the projections passed its commit, so a query's successful result on
  // it is the same for everyone allowed to read the endpoint (read access is checked before the cache), except for
  // API keys scoped to tables, whose scope is part of the key. Failed results are never kept (they may log).
  const results = createBoundedCache<string, string>(GRAPHQL_RESULTS_CACHE);
  return async (req: Request, res: Response): Promise<void> => {
    setRouteTemplate(res, GRAPHQL_TEMPLATE);
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
        throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, undefined, { Allow: ALLOWED });
      }
      assertQueryText(rawQueryOf(req));
      const params = graphqlParamsOf(req);
      const { principal, state } = await principalAndState(deps, req, res);
      const served = resolveServedEndpoint(state, principal, addressOf(req), 'Row');
      if (params === null) {
        deps.ide.send(res, req.originalUrl.split('?')[0] ?? '');
        return;
      }
      const tables = await deps.loadTables(served.scope, state.position);
      let position: Position | null = null;
      const request = createGeneratedRequest({
        principal,
        requestId: res.locals.requestId ?? 'unknown',
        state,
        served,
        tables,
        afterWrite: async (outcome) => {
          if (outcome.position === null) return;
          await awaitWriteConsistency(outcome.position, Object.assign({}, deps.consistency, { projections: outcome.projections }));
          position = maxPosition(position, outcome.position);
        },
      });
      const method = req.method === 'POST' ? 'POST' : 'GET';
      const key = served.scope.isDraft
        ? null
        : [
            served.scope.branchId,
            served.scope.seq,
            served.mode,
            tables.hash,
            method,
            JSON.stringify(keyScopeOf(principal)?.tableIds ?? null),
            params.operationName ?? '',
            JSON.stringify(params.variables ?? null),
            params.query,
          ].join('\0');
      const kept = key === null ? undefined : results.get(key);
      if (kept !== undefined) {
        sendJsonText(res, 200, kept);
        return;
      }
      const final = key !== null && (await deps.isFinal('rows', state.position));
      const reply = await executeGenerated({ compiled: deps.schemas.get(served, tables), params, method, request, position: () => position, format });
      const text = JSON.stringify(reply.body);
      if (final && key !== null && reply.status === 200 && reply.body.errors === undefined && position === null) results.set(key, text);
      sendJsonText(res, reply.status, text);
    } catch (err) {
      sendGraphqlError(res, err);
    }
  };
}
