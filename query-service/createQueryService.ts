import express, { type Router } from 'express';
import type { Logger } from 'pino';
import type {
  ApiKeyDirectory,
  Authenticator,
  CommandGateway,
  ProjectionOperations,
  ConsistencyWaiter,
  OAuthServer,
  PositionBackend,
  RoleHandle,
  Sessions,
  SystemStateSource,
  ViewStore,
} from '../contracts/index.ts';
import { createAdminUiRouter } from './pages/adminUiRouter.ts';
import { createGeneratedEndpoints } from './generatedApi/createGeneratedEndpointsRouter.ts';
import type { GraphqlExecutionConfig } from './generatedApi/serve/compiledOperations.ts';
import type { FastRoutes } from './http/fastRoutes.ts';
import { GENERATED_MOUNT, SURFACES } from './http/routeTable.ts';
import { createGetTokenRouter } from './pages/createGetTokenRouter.ts';
import { createAuthResolvers } from './systemApi/graphql/authResolvers.ts';
import { attachResolvers, buildSystemSchema } from './systemApi/graphql/systemSchema.ts';
import { createMutationResolvers } from './systemApi/graphql/mutationResolvers.ts';
import { createQueryResolvers } from './systemApi/graphql/queryResolvers.ts';
import { createSystemGraphql } from './systemApi/graphql/systemGraphqlRouter.ts';
import { sendGraphqlError } from './graphqlKit/graphqlErrors.ts';
import { cors } from './http/cors.ts';
import { originPolicy } from './http/csrfGate.ts';
import { LOCAL_HOSTS_ONLY, type HostPolicy } from './http/hostPolicy.ts';
import { answeringBodyErrors, jsonBody } from './http/jsonBody.ts';
import { createSessionCookies, type SessionCookieConfig } from './http/sessionCookies.ts';
import type { MinPositionOptions } from './http/minPosition.ts';
import { createOperatorOperations } from './systemApi/operations/operatorOperations.ts';
import { createSystemOperations, type SystemOperations } from './systemApi/operations/systemOperations.ts';
import { createOperatorResolvers } from './systemApi/graphql/operatorResolvers.ts';
import { buildSystemOpenApiDocument } from './systemOpenApiDocument.ts';
import { createSystemDocsRouter } from './systemApi/rest/systemDocsRouter.ts';
import { createSystemRestRouter } from './systemApi/rest/systemRestRouter.ts';
import { MCP_CONFIG_DEFAULTS, createMcpRouter, mcpSessionLimitsOf, type McpConfig } from './mcp/createMcpRouter.ts';
import { createInMemoryMcpSessionStore } from './adapters/inMemoryMcpSessionStore.ts';
import { createMcpEndpointDocs } from './mcp/createMcpEndpointDocs.ts';
import type { McpEndpointDocs } from './mcp/mcpEndpointDocs.ts';
import type { McpSessionStore } from './mcp/mcpSessionStore.ts';
import { withDeliveryLookup } from './systemApi/operations/webhookOperations.ts';
import { createMergeService, withMerges } from './merge/mergeService.ts';
import { createChangeFeed, type ChangeFeedDeps } from './feed/eventFeedRouter.ts';
import { createOAuthAuthorizeRouter } from './oauth/oauthAuthorizeRouter.ts';
import { createOAuthDiscoveryRouter } from './oauth/oauthDiscoveryRouter.ts';
import { createOAuthEndpointsRouter } from './oauth/oauthEndpointsRouter.ts';
import { adminStylesheetOf } from './oauth/oauthPages.ts';
import { PORTABILITY_DEFAULTS, createPortabilityRouter, createTableTransfer, type PortabilityConfig } from './portability/portabilityRoutes.ts';
import { createRowIndexes } from './readers/rowIndexes.ts';
import { DEFAULT_ROW_ORDER } from './rows/rowOrderBy.ts';

export type QueryServiceConfig = {
  /** WRITE_CONSISTENCY. */
  readonly writeConsistency: 'projected' | 'appended';
  /** CONSISTENCY_TIMEOUT_MS: write waits and X-Strata-Min-Position reads. */
  readonly consistencyTimeoutMs: number;
  /** BODY_LIMIT, for mounting without the app-level body parser (a parsed body is not read again). */
  readonly bodyLimitBytes: number;
  readonly bodyLimitText?: string;
  /** MCP_* settings, PUBLIC_URL, CORS_ORIGIN and the product version for /mcp (defaults: operations.md §1). */
  readonly mcp?: Partial<Omit<McpConfig, 'bodyLimitBytes' | 'bodyLimitText'>>;
  /** The built Admin UI (`admin-ui/dist`, resolved by deploy): served at `/admin/`, `/` redirects there. Unset: not served. */
  readonly adminUiDir?: string;
  /** GRAPHQL_ROOT_FIELD_PREFIX: generated root fields prefixed with the project (generated-api.md §6); default false. */
  readonly rootFieldPrefix?: boolean;
  /**
   * Kept generated GraphQL documents and when their operations are compiled. No environment variable sets it
   * (operations.md §1 names none): tests choose other values; default GRAPHQL_EXECUTION_DEFAULTS.
   */
  readonly graphqlExecution?: GraphqlExecutionConfig;
  /** COOKIE_SECURE and COOKIE_SAMESITE of the session cookies (auth.md §4); default not Secure, Lax. */
  readonly cookies?: SessionCookieConfig;
  /** PUBLIC_URL as an origin, for the own-origin CSRF check (auth.md §6.1); null/unset: derived per request. */
  readonly publicUrl?: string | null;
  /** CORS_ORIGIN: exact origins for credentialed CORS and the CSRF allowlist (auth.md §6.2); default none. */
  readonly corsOrigins?: readonly string[];
  /** ALLOWED_HOSTS and PUBLIC_URL's host: the own origin is derived only from these hosts (auth.md §6.4). */
  readonly hosts?: HostPolicy;
  /** OAUTH_ENABLED (default true when the `oauth` dependency is given): discovery and `/oauth/*` (oauth.md). */
  readonly oauthEnabled?: boolean;
  /** IMPORT_MAX_BYTES of table and bundle imports (portability.md §2; default 1 GiB). */
  readonly portability?: Partial<PortabilityConfig>;
};

export type QueryServiceDeps = {
  readonly viewStore: ViewStore;
  /** In-memory system state shared with the write side (authorization without store queries). */
  readonly systemState: SystemStateSource;
  /** Every write goes through the command side's gateway. */
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  /** Refresh, logout and logout-all behind `/api/auth/*` (absent: those routes answer 503). */
  readonly sessions?: Sessions;
  /** API-key reads (absent: those fields and routes answer 503). */
  readonly apiKeys?: ApiKeyDirectory;
  /** The OAuth authorization server (absent: no discovery, no `/oauth/*`, /mcp 401s without resource_metadata). */
  readonly oauth?: OAuthServer;
  readonly waiter: ConsistencyWaiter;
  /** `eventStore.backend`: positions of another backend are refused. */
  readonly eventStoreBackend: PositionBackend;
  readonly log: Logger;
  readonly config: QueryServiceConfig;
  /** The system reads (default: createSystemOperations over viewStore and systemState). */
  readonly operations?: SystemOperations;
  /** Projection status and rebuilds for the operator API (operations.md §5.1); absent: those answer 503. */
  readonly projections?: ProjectionOperations;
  /** MCP session records (default: in memory). */
  readonly mcpSessionStore?: McpSessionStore;
  /** Told about each compilation of a generated GraphQL operation (false: graphql-jit declined it; tests count them). */
  readonly onGraphqlCompile?: (compiled: boolean) => void;
  /** Generated-endpoint documents for the MCP tools get_graphql_schema / get_openapi_spec (default: built from views). */
  readonly mcpDocs?: McpEndpointDocs;
  /** The change feed (changes.md §5); absent: its route is not served. */
  readonly changeFeed?: ChangeFeedDeps;
};

export type QueryService = RoleHandle & {
  readonly router: Router;
  /** Generated-endpoint reads answered without the router, through the same middleware (see FastRoutes). */
  readonly fastRoutes: FastRoutes;
  /** Ends long-lived responses (change-feed streams) so that the HTTP server can close at shutdown. */
  drain(): void;
};

/** Projections the system API reads (X-Strata-Min-Position waits for all of them). */
export const SYSTEM_PROJECTIONS: readonly string[] = ['directory', 'catalog', 'schemas', 'rows'];

/**
 * The `query` role's HTTP surface: the system REST API under `/api` (with its OpenAPI document and Swagger UI)
 * the system GraphQL API at `/graphql`, the generated APIs under `/endpoint`, the MCP endpoint at `/mcp` and the
 * `/get-token` page. Reads go through SystemOperations, writes through the gateway. CORS (auth.md §6.2) and the
 * origin policy of the CSRF gate (§6.1) apply to every surface.
 */
export function createQueryService(deps: QueryServiceDeps): QueryService {
  const log = deps.log.child({ role: 'query' });
  const { config, authenticator } = deps;
  const commands = withDeliveryLookup(deps.gateway, deps.viewStore);
  const merges = createMergeService({
    viewStore: deps.viewStore,
    systemState: deps.systemState,
    gateway: commands,
    waiter: deps.waiter,
    log,
    timeoutMs: config.consistencyTimeoutMs,
  });
  const gateway = withMerges(commands, merges);
  const cookies = createSessionCookies(config.cookies);
  const origins = { publicUrl: config.publicUrl ?? null, corsOrigins: config.corsOrigins ?? [], hosts: config.hosts ?? LOCAL_HOSTS_ONLY };
  const operations = deps.operations ?? createSystemOperations({ viewStore: deps.viewStore, systemState: deps.systemState, log });
  const schema = buildSystemSchema();
  attachResolvers(schema, createQueryResolvers(schema, operations));
  const consistency = { waiter: deps.waiter, mode: config.writeConsistency, timeoutMs: config.consistencyTimeoutMs };
  attachResolvers(schema, createMutationResolvers({ gateway, consistency }));
  const operator = createOperatorOperations({ systemState: deps.systemState, ...(deps.projections ? { projections: deps.projections } : {}) });
  attachResolvers(schema, createOperatorResolvers(operator));
  const oauth = config.oauthEnabled === false ? undefined : deps.oauth;
  attachResolvers(schema, createAuthResolvers({ authenticator, ...(deps.apiKeys ? { apiKeys: deps.apiKeys } : {}), ...(oauth ? { oauth } : {}) }));

  const minPosition: MinPositionOptions = {
    waiter: deps.waiter,
    backend: deps.eventStoreBackend,
    timeoutMs: config.consistencyTimeoutMs,
    projections: SYSTEM_PROJECTIONS,
  };
  const graphql = createSystemGraphql({ schema, authenticator, minPosition, log, cookies });
  const docs = createSystemDocsRouter(SURFACES.systemRest.mount, buildSystemOpenApiDocument(schema));
  const rest = createSystemRestRouter({
    schema,
    operations,
    operator,
    gateway,
    authenticator,
    minPosition,
    consistency,
    docs,
    cookies,
    ...(deps.sessions ? { sessions: deps.sessions } : {}),
    ...(deps.apiKeys ? { apiKeys: deps.apiKeys } : {}),
    ...(oauth ? { oauth } : {}),
  });

  const bodyLimitText = config.bodyLimitText ?? `${config.bodyLimitBytes}b`;
  const mcpConfig: McpConfig = {
    ...MCP_CONFIG_DEFAULTS,
    version: '1.0.0',
    ...origins,
    ...config.mcp,
    oauthEnabled: oauth !== undefined,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyLimitText,
  };
  const mcp = createMcpRouter({
    operations,
    gateway,
    authenticator,
    systemState: deps.systemState,
    consistency,
    log,
    config: mcpConfig,
    store: deps.mcpSessionStore ?? createInMemoryMcpSessionStore(mcpSessionLimitsOf(mcpConfig)),
    docs: deps.mcpDocs ?? createMcpEndpointDocs({ operations, viewStore: deps.viewStore, systemState: deps.systemState }),
  });

  const rowIndexes = createRowIndexes(deps.viewStore, log);
  const portabilityDeps = {
    viewStore: deps.viewStore,
    systemState: deps.systemState,
    gateway,
    authenticator,
    minPosition,
    consistency,
    config: { ...PORTABILITY_DEFAULTS, ...config.portability },
    indexes: rowIndexes,
  };
  const transfer = createTableTransfer(portabilityDeps);

  const parseBody = jsonBody({ limitBytes: config.bodyLimitBytes, limitText: config.bodyLimitText ?? `${config.bodyLimitBytes}b` });
  const router = express.Router();
  if (oauth !== undefined) {
    // Before CORS: these answer CORS themselves (public documents and endpoints that never read cookies).
    const shell = { stylesheet: adminStylesheetOf(config.adminUiDir) };
    router.use(createOAuthDiscoveryRouter(origins));
    router.use(createOAuthEndpointsRouter({ oauth, origins, log }));
    router.use(createOAuthAuthorizeRouter({ oauth, authenticator, systemState: deps.systemState, cookies, origins, shell, log }));
  }
  const originMiddleware = [cors(origins.corsOrigins), originPolicy(origins)];
  router.use(...originMiddleware);
  router.use(SURFACES.systemRest.mount, parseBody);
  // Body failures on /graphql (413, 415, bad JSON) answer in the GraphQL envelope (errors.md §3.1).
  router.use(SURFACES.systemGraphql.mount, answeringBodyErrors(parseBody, sendGraphqlError));
  const feed = deps.changeFeed ? createChangeFeed({ ...deps.changeFeed, authenticator, systemState: deps.systemState, log }) : null;
  if (feed !== null) router.use(SURFACES.systemRest.mount, feed.router);
  router.use(SURFACES.systemRest.mount, createPortabilityRouter(portabilityDeps, transfer));
  router.use(SURFACES.systemRest.mount, rest);
  router.use(SURFACES.systemGraphql.mount, graphql.router);
  router.use(SURFACES.mcp.mount, mcp.router);
  router.use(createGetTokenRouter());
  const generated = createGeneratedEndpoints({
    transfer,
    viewStore: deps.viewStore,
    systemState: deps.systemState,
    gateway,
    authenticator,
    minPosition,
    consistency,
    body: { limitBytes: config.bodyLimitBytes, limitText: bodyLimitText },
    rootFieldPrefix: config.rootFieldPrefix ?? false,
    ...(config.graphqlExecution !== undefined ? { graphqlExecution: config.graphqlExecution } : {}),
    ...(deps.onGraphqlCompile !== undefined ? { onGraphqlCompile: deps.onGraphqlCompile } : {}),
    log,
  });
  router.use(GENERATED_MOUNT, generated.router);
  if (config.adminUiDir !== undefined) router.use(createAdminUiRouter({ dir: config.adminUiDir }));

  // The routes before `/endpoint` only match other prefixes, so a generated read meets just the origin middleware.
  const fastRoutes: FastRoutes = {
    match(req) {
      const chain = generated.fastRoutes.match(req);
      return chain === null ? null : [...originMiddleware, ...chain];
    },
  };

  return {
    name: 'query',
    router,
    fastRoutes,
    drain: () => feed?.close(),
    async start() {
      await graphql.start();
      // Every list without an orderBy reads this index; built on demand, the first lists of a large store would wait
      // for its build (20+ s at a million rows) and time out meanwhile. Not awaited: it builds off the event loop, and
      // a store without the rows projection yet gets it from the first list instead.
      rowIndexes.ensure(DEFAULT_ROW_ORDER).catch(() => undefined);
      log.info('query service started');
    },
    async stop() {
      feed?.close();
      await graphql.stop();
      await mcp.close();
    },
  };
}
