import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { AppError } from '../../../contracts/index.ts';
import type { ApiKeyDirectory, Authenticator, CommandGateway, CommandInput, CommandType, OAuthServer, Sessions } from '../../../contracts/index.ts';
import { authenticate, requestContextOf } from '../../http/authenticate.ts';
import { minPosition, type MinPositionOptions } from '../../http/minPosition.ts';
import { methodNotAllowed, notFound } from '../../http/routeFallbacks.ts';
import { sendJson } from '../../http/sendJson.ts';
import { createSessionCookies, type SessionCookies } from '../../http/sessionCookies.ts';
import { finishWrite, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import type { OperatorOperations } from '../operations/operatorOperations.ts';
import type { SystemOperations } from '../operations/systemOperations.ts';
import { runApiKeyRead } from '../operations/apiKeyReads.ts';
import { runOAuthGrantAction } from '../operations/oauthGrantActions.ts';
import { restReadBody, runRead } from '../operations/systemReads.ts';
import { dryRunBody, restWriteBody, systemWrites, type WriteSpec } from '../operations/systemWrites.ts';
import { routeInput, routeInputType } from './routeInput.ts';
import { loginHandler, sessionHandler } from './sessionRoutes.ts';
import { isServedBeforeAuthentication, systemRestRoutes, type RestRoute } from './systemRoutes.ts';

export type SystemRestDeps = {
  readonly schema: GraphQLSchema;
  readonly operations: SystemOperations;
  /** Projection status and rebuilds (operations.md §5.1). */
  readonly operator: OperatorOperations;
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  /** Read-your-writes for reads (X-Strata-Min-Position). */
  readonly minPosition: MinPositionOptions;
  /** WRITE_CONSISTENCY wait of writes (projections come from each command outcome). */
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  /** Public documentation routes mounted before authentication (OpenAPI document, Swagger UI). */
  readonly docs: Router;
  readonly routes?: readonly RestRoute[];
  /** Refresh, logout and logout-all (auth.md §7); absent: those routes answer 503. */
  readonly sessions?: Sessions;
  /** API-key reads; absent: those routes answer 503. */
  readonly apiKeys?: ApiKeyDirectory;
  /** Connected apps (`/oauth/grants`); absent: those routes answer 503. */
  readonly oauth?: OAuthServer;
  /** The session cookies (default: development settings). */
  readonly cookies?: SessionCookies;
};

function handlerOf(route: RestRoute, deps: SystemRestDeps & { readonly cookies: SessionCookies }): RequestHandler[] {
  const type = routeInputType(deps.schema, route);
  const { action } = route;
  switch (action.kind) {
    case 'login':
      return [loginHandler(route, type, deps)];
    case 'session':
      return [sessionHandler(action.name, deps)];
    case 'grant':
      return [
        async (req: Request, res: Response) => {
          const input = routeInput(req, route, type);
          sendJson(res, route.status, await runOAuthGrantAction(deps.oauth, action.name, requestContextOf(res), input));
        },
      ];
    case 'keyRead':
      return [
        async (req: Request, res: Response) => {
          const input = routeInput(req, route, type);
          sendJson(res, route.status, await runApiKeyRead(deps.apiKeys, action.name, requestContextOf(res), input));
        },
      ];
    case 'operator': {
      const run = deps.operator[action.name] as (ctx: ReturnType<typeof requestContextOf>, input: { name: string }) => Promise<unknown>;
      return [
        async (req: Request, res: Response) => {
          const input = routeInput(req, route, type) as { name: string };
          sendJson(res, route.status, await run(requestContextOf(res), input));
        },
      ];
    }
    case 'read':
      return [
        minPosition(deps.minPosition),
        async (req: Request, res: Response) => {
          const input = routeInput(req, route, type);
          sendJson(res, route.status, await restReadBody(await runRead(deps.operations, action.name, requestContextOf(res), input)));
        },
      ];
    case 'write': {
      const spec: WriteSpec<CommandType> = systemWrites[action.name];
      return [
        async (req: Request, res: Response) => {
          const input = routeInput(req, route, type);
          const ctx = requestContextOf(res);
          if (spec.dryRun !== undefined && isDryRun(req)) {
            const preview = await deps.gateway.execute(spec.dryRun, spec.toCommand(input) as CommandInput<typeof spec.dryRun>, {
              principal: ctx.principal,
              correlationId: ctx.requestId,
            });
            sendJson(res, 200, dryRunBody(preview.result));
            return;
          }
          const outcome = await deps.gateway.execute(spec.command, spec.toCommand(input), {
            principal: ctx.principal,
            correlationId: ctx.requestId,
          });
          if (outcome.position !== null) {
            await finishWrite(res, outcome.position, { ...deps.consistency, projections: outcome.projections });
          }
          if (spec.clearsSessionCookies) deps.cookies.clear(res);
          sendJson(res, route.status, restWriteBody(spec.output, outcome.result));
        },
      ];
    }
  }
}

/** `?dryRun=true` (domain.md §6 rule 6); `false` or absent: a real run; anything else is refused. */
function isDryRun(req: Request): boolean {
  const value = new URL(req.originalUrl, 'http://localhost').searchParams.getAll('dryRun');
  if (value.length === 0 || (value.length === 1 && value[0] === 'false')) return false;
  if (value.length === 1 && value[0] === 'true') return true;
  throw new AppError('BAD_USER_INPUT', 'dryRun must be true or false', [{ path: '/dryRun', message: 'must be true or false' }]);
}

/** Registers the routes grouped by path, with 405 + Allow for the other methods of a known path. */
function mountRoutes(router: Router, routes: readonly RestRoute[], deps: SystemRestDeps & { readonly cookies: SessionCookies }): void {
  const byPath = new Map<string, RestRoute[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, group] of byPath) {
    const chain = router.route(path);
    for (const route of group) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
      // express answers HTTP HEAD with the GET route.
      chain[method](...handlerOf(route, deps));
    }
    chain.all(methodNotAllowed(group.map((route) => route.method)));
  }
}

/**
 * The system REST API under `/api` (system-api.md §4): public documentation, login, refresh and logout first, then
 * authentication (auth.md §2) for every other path, the route table, and 404 ROUTE_NOT_FOUND for the rest.
 * Errors propagate to the app's error handler (REST error body).
 */
export function createSystemRestRouter(deps: SystemRestDeps): Router {
  const routes = deps.routes ?? systemRestRoutes;
  const withCookies = { ...deps, cookies: deps.cookies ?? createSessionCookies() };
  const router = express.Router();
  router.use(deps.docs);
  // Login, refresh and logout ignore presented credentials for authentication (auth.md §2), so they come first.
  mountRoutes(router, routes.filter(isServedBeforeAuthentication), withCookies);
  router.use(authenticate(deps.authenticator));
  mountRoutes(
    router,
    routes.filter((route) => !isServedBeforeAuthentication(route)),
    withCookies,
  );
  router.use(notFound);
  return router;
}
