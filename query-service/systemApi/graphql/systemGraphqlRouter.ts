import { expressMiddleware } from '@as-integrations/express5';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { AppError, anonymousPrincipal, isJsonTextTooDeep, principalRef, tooDeepJsonError, type Authenticator } from '../../../contracts/index.ts';
import { authenticateRequest, requestContextOf } from '../../http/authenticate.ts';
import { assertCsrf } from '../../http/csrfGate.ts';
import { MIN_POSITION_HEADER, awaitMinPosition, type MinPositionOptions } from '../../http/minPosition.ts';
import { searchParamsOf } from '../../http/queryParams.ts';
import { notFound } from '../../http/routeFallbacks.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import { createSessionCookies, type SessionCookies } from '../../http/sessionCookies.ts';
import { createStrataApollo } from './createStrataApollo.ts';
import { sendGraphqlError } from '../../graphqlKit/graphqlErrors.ts';
import { createGraphqlIde } from '../../pages/graphqlIdePage.ts';
import { isLoginOnlyRequest } from './loginOnlyRequest.ts';
import { assertQueryText } from '../../graphqlKit/queryLimits.ts';
import type { SystemGraphqlContext } from './systemGraphqlContext.ts';

export type SystemGraphqlDeps = {
  /** The system schema with resolvers attached. */
  readonly schema: GraphQLSchema;
  readonly authenticator: Authenticator;
  readonly minPosition: MinPositionOptions;
  readonly log: Logger;
  /** The session cookies `login` sets and an own password change clears (default: development settings). */
  readonly cookies?: SessionCookies;
};

export type SystemGraphql = {
  /** Mount at `/graphql`. Answers 503 until `start()` resolved. */
  readonly router: Router;
  start(): Promise<void>;
  stop(): Promise<void>;
};

const ALLOWED = 'GET, HEAD, POST';

const searchParamOf = (req: Request, name: string): string | undefined => searchParamsOf(req).get(name) ?? undefined;

const queryParamOf = (req: Request): string | undefined => searchParamOf(req, 'query');

/**
 * Steps 0-2 of auth.md §10 per HTTP request, before any GraphQL work (errors.md §3.1: no `data`, HTTP status of
 * the failure): method, batch, document size, credentials, read-your-writes wait.
 */
async function admit(req: Request, res: Response, authenticator: Authenticator, minPosition: MinPositionOptions): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') {
    throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this route`, undefined, { Allow: ALLOWED });
  }
  if (Array.isArray(req.body)) throw new AppError('BAD_REQUEST', 'Batched GraphQL requests are not supported');
  assertQueryText(req.method === 'POST' ? (req.body as { query?: unknown } | undefined)?.query : queryParamOf(req));
  // A POST body was checked while parsing; GET variables are parsed by Apollo, so their nesting is checked here.
  const variables = req.method === 'POST' ? undefined : searchParamOf(req, 'variables');
  if (variables !== undefined && isJsonTextTooDeep(variables)) throw tooDeepJsonError('`variables`');
  try {
    await authenticateRequest(authenticator, req, res);
  } catch (err) {
    // Login ignores presented credentials (auth.md §2): a stale cookie must not block signing in again.
    if (req.method !== 'POST' || !isLoginOnlyRequest(req.body)) throw err;
    res.locals.principal = anonymousPrincipal;
    res.locals.principalRef = principalRef(anonymousPrincipal);
  }
  await awaitMinPosition(req.headers[MIN_POSITION_HEADER], minPosition);
}

/**
 * The system GraphQL endpoint (system-api.md §3): POST and GET (queries only) through Apollo, GET without `query`
 * serves the bundled IDE page.
 */
export function createSystemGraphql(deps: SystemGraphqlDeps): SystemGraphql {
  const apollo = createStrataApollo<SystemGraphqlContext>({ schema: deps.schema, log: deps.log.child({ component: 'graphql' }) });
  const cookies = deps.cookies ?? createSessionCookies();
  let handler: RequestHandler | null = null;
  const router = express.Router();
  const ide = createGraphqlIde(router, '/graphql', 'Strata system GraphQL');

  router.all('/', async (req, res, next) => {
    setRouteTemplate(res, '/graphql');
    if ((req.method === 'GET' || req.method === 'HEAD') && queryParamOf(req) === undefined) {
      ide.sendPage(res);
      return;
    }
    try {
      if (handler === null) throw new AppError('SERVICE_UNAVAILABLE');
      await admit(req, res, deps.authenticator, deps.minPosition);
    } catch (err) {
      sendGraphqlError(res, err);
      return;
    }
    // Apollo runs GET only; node already knows to send no body for HTTP HEAD.
    if (req.method === 'HEAD') req.method = 'GET';
    // The Apollo integration insists that the body property exists (jsonBody leaves it unset without a body).
    req.body = req.body as unknown;
    await handler(req, res, next);
  });
  router.use(notFound);

  return {
    router,
    async start() {
      await apollo.start();
      handler = expressMiddleware(apollo, {
        context: async ({ req, res }): Promise<SystemGraphqlContext> => ({
          request: requestContextOf(res),
          clientIp: req.ip ?? '',
          session: {
            assertCsrf: () => assertCsrf(req, res),
            setCookies: (values) => cookies.set(res, values),
            clearCookies: () => cookies.clear(res),
            setRetryAfter: (seconds) => res.setHeader('Retry-After', seconds),
          },
          position: null,
        }),
      }) as RequestHandler;
    },
    async stop() {
      handler = null;
      await apollo.stop();
    },
  };
}
