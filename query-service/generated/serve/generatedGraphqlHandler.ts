import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError, maxPosition } from '../../../contracts/index.ts';
import type { Authenticator, Position, SystemStateSource } from '../../../contracts/index.ts';
import { createGraphqlErrorFormatter, sendGraphqlError } from '../../graphql/graphqlErrors.ts';
import { assertQueryText } from '../../graphql/queryLimits.ts';
import { authenticateRequest } from '../../http/authenticate.ts';
import { MIN_POSITION_HEADER, awaitMinPosition, type MinPositionOptions } from '../../http/minPosition.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import { sendJson } from '../../http/sendJson.ts';
import { awaitWriteConsistency, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import { createGeneratedRequest } from '../dataSource/generatedRequest.ts';
import type { ServedTablesLoader } from '../dataSource/servedTables.ts';
import { resolveServedEndpoint, type EndpointAddress } from '../endpoint/servedEndpoint.ts';
import { executeGenerated } from './executeGenerated.ts';
import type { GeneratedSchemaCache } from './generatedSchemaCache.ts';
import type { GraphqlIdePage } from './graphqlIdePage.ts';
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
};

const ALLOWED = 'GET, HEAD, POST';

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
  return async (req: Request, res: Response): Promise<void> => {
    setRouteTemplate(res, GRAPHQL_TEMPLATE);
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
        throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, undefined, { Allow: ALLOWED });
      }
      assertQueryText(rawQueryOf(req));
      const params = graphqlParamsOf(req);
      const principal = await authenticateRequest(deps.authenticator, req, res);
      await awaitMinPosition(req.headers[MIN_POSITION_HEADER], deps.minPosition);
      const state = await deps.systemState.current();
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
          await awaitWriteConsistency(outcome.position, { ...deps.consistency, projections: outcome.projections });
          position = maxPosition(position, outcome.position);
        },
      });
      const reply = await executeGenerated({
        compiled: deps.schemas.get(served, tables),
        params,
        method: req.method === 'POST' ? 'POST' : 'GET',
        request,
        position: () => position,
        format,
      });
      sendJson(res, reply.status, reply.body);
    } catch (err) {
      sendGraphqlError(res, err);
    }
  };
}
