import { fileURLToPath } from 'node:url';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import type { Authenticator, CommandGateway, SystemStateSource, ViewStore } from '../../contracts/index.ts';
import { sendGraphqlError } from '../graphqlKit/graphqlErrors.ts';
import type { FastRoutes } from '../http/fastRoutes.ts';
import { GENERATED_MOUNT, SURFACES, expressRouteOf, fastParamsOf, mountBelowGenerated } from '../http/routeTable.ts';
import { answeringBodyErrors, jsonBody, type JsonBodyOptions } from '../http/jsonBody.ts';
import type { MinPositionOptions } from '../http/minPosition.ts';
import { notFound } from '../http/routeFallbacks.ts';
import { sendError } from '../http/sendError.ts';
import type { WriteConsistencyOptions } from '../http/writeConsistency.ts';
import { createChangeQueries } from '../changes/changeQueries.ts';
import { createCatalogReader } from '../readers/catalogReader.ts';
import { createChangeReader } from '../changes/changeReader.ts';
import { createRowReader } from '../readers/rowReader.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { createTableModels } from '../readers/tableModels.ts';
import { createFinality } from './dataSource/finality.ts';
import { createRowCounts } from './dataSource/rowCounts.ts';
import { createRowIndexes } from '../readers/rowIndexes.ts';
import { createServedTablesLoader } from './dataSource/servedTables.ts';
import { createEndpointDataSource } from './dataSource/endpointDataSource.ts';
import { createGeneratedGraphqlHandler } from './serve/generatedGraphqlHandler.ts';
import { createGeneratedRestHandler } from './serve/generatedRestHandler.ts';
import type { GraphqlExecutionConfig } from './serve/compiledOperations.ts';
import { createGeneratedSchemaCache } from './serve/generatedSchemaCache.ts';
import { createGraphqlIdePage } from '../pages/graphqlIdePage.ts';
import { createOpenApiCache, createSwaggerDocs } from './serve/restDocs.ts';
import type { TableTransfer } from '../portability/portabilityRoutes.ts';

export type GeneratedEndpointsDeps = {
  readonly viewStore: ViewStore;
  /** In-memory system state: endpoint resolution and every access check, no store queries. */
  readonly systemState: SystemStateSource;
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  /** X-Strata-Min-Position waits (the tables, and so the schema, are read after the wait). */
  readonly minPosition: MinPositionOptions;
  /** WRITE_CONSISTENCY wait of writes (projections come from each command outcome). */
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  /** BODY_LIMIT of request bodies. */
  readonly body: JsonBodyOptions;
  /** GRAPHQL_ROOT_FIELD_PREFIX (generated-api.md §6). */
  readonly rootFieldPrefix: boolean;
  readonly log: Logger;
  /** Table export and import of `B/tables/{table}/export|import` (portability.md §1-§2). */
  readonly transfer: TableTransfer;
  /** Kept documents and when operations are compiled (default GRAPHQL_EXECUTION_DEFAULTS). */
  readonly graphqlExecution?: GraphqlExecutionConfig;
  /** Told about each compilation of a generated GraphQL operation (false: graphql-jit declined it). */
  readonly onGraphqlCompile?: (compiled: boolean) => void;
  /** The GraphiQL build (index.html + assets/); default admin-ui/dist-graphiql; null serves the minimal IDE page. */
  readonly graphiqlDir?: string | null;
};

/** The generated APIs as an express router (mounted at `/endpoint`) and their reads as fast routes. */
export type GeneratedEndpoints = {
  readonly router: Router;
  /** GET/HEAD on generated REST URLs and GET/POST on generated GraphQL URLs, matched as the router matches them. */
  readonly fastRoutes: FastRoutes;
};

/** Sets what express's router sets for a route below `/endpoint` before running `handler`. */
function routed(handler: RequestHandler, params: Record<string, string | string[]>): RequestHandler {
  return (req, res, next) => {
    req.originalUrl ??= req.url;
    req.baseUrl = GENERATED_MOUNT;
    req.params = params as Request['params'];
    return handler(req, res, next);
  };
}

const DEFAULT_GRAPHIQL_DIR = fileURLToPath(new URL('../../admin-ui/dist-graphiql/', import.meta.url));

/**
 * The generated APIs (generated-api.md), mounted at `/endpoint`: GraphQL at `/graphql/{org}/{project}/{branch}/{mode}`
 * and REST below `/rest/{org}/{project}/{branch}/{mode}`, served from the views for the revision each endpoint serves
 * now, writes through the gateway; plus the bundled GraphiQL and Swagger UI files. Without Apollo: documents are
 * parsed and validated once per compiled schema and query text, executed by graphql-js, and query operations that
 * repeat are compiled by graphql-jit (compiledOperations.ts).
 */
export function createGeneratedEndpoints(deps: GeneratedEndpointsDeps): GeneratedEndpoints {
  const log = deps.log.child({ component: 'generatedEndpoints' });
  const schemas = createSchemaReader(deps.viewStore);
  const isFinal = createFinality(deps.viewStore);
  const models = createTableModels();
  const loadTables = createServedTablesLoader(deps.viewStore, schemas, models, isFinal);
  const changes = createChangeQueries({
    schemas,
    changes: createChangeReader(deps.viewStore),
    catalog: createCatalogReader(deps.viewStore),
    models,
  });
  const dataSource = createEndpointDataSource({
    viewStore: deps.viewStore,
    rows: createRowReader(deps.viewStore, createRowIndexes(deps.viewStore, log)),
    schemas,
    gateway: deps.gateway,
    counts: createRowCounts(isFinal),
    isFinal,
    changes,
  });
  const access = { systemState: deps.systemState, authenticator: deps.authenticator, minPosition: deps.minPosition };
  const ide = createGraphqlIdePage(deps.graphiqlDir === undefined ? DEFAULT_GRAPHIQL_DIR : deps.graphiqlDir, log);
  const docs = createSwaggerDocs();
  const graphql = createGeneratedGraphqlHandler({
    ...access,
    isFinal,
    consistency: deps.consistency,
    loadTables,
    schemas: createGeneratedSchemaCache({
      dataSource,
      rootFieldPrefix: deps.rootFieldPrefix,
      ...(deps.graphqlExecution !== undefined ? { execution: deps.graphqlExecution } : {}),
      ...(deps.onGraphqlCompile !== undefined ? { onCompile: deps.onGraphqlCompile } : {}),
    }),
    ide,
    log,
  });
  const rest = createGeneratedRestHandler({
    ...access,
    consistency: deps.consistency,
    loadTables,
    dataSource,
    transfer: deps.transfer,
    openApi: createOpenApiCache(),
    sendDocs: docs.sendPage,
  });
  const parseBody = jsonBody(deps.body);
  // Body failures (413, 415, bad JSON) answer in each surface's envelope (errors.md §1, §3.1).
  const graphqlBody = answeringBodyErrors(parseBody, sendGraphqlError);
  const restBody = answeringBodyErrors(parseBody, sendError);

  // The generated surfaces of the route table (http/routeTable.ts), each with its body parser and handler: express
  // routes and the fast matcher are both derived from it. REST answers every method (`router.all`): reads, and writes
  // where this process runs the command role (deploy keeps writes of a query-only process on express, where
  // forwarding sees them).
  const surfaces = [
    { surface: SURFACES.generatedGraphql, body: graphqlBody, handler: graphql },
    { surface: SURFACES.generatedRest, body: restBody, handler: rest },
  ] as const;

  const router = express.Router();
  router.use('/swagger-ui', docs.assets);
  router.use('/graphiql', ide.assets);
  for (const { surface, body } of surfaces) router.use(mountBelowGenerated(surface), body);
  for (const { surface, handler } of surfaces) router.all(expressRouteOf(surface), handler);
  router.use(notFound);

  const fastRoutes: FastRoutes = {
    match(req: IncomingMessage) {
      for (const { surface, body, handler } of surfaces) {
        const params = fastParamsOf(surface, req);
        if (params !== null) return [body, routed(handler, params)];
      }
      return null;
    },
  };
  return { router, fastRoutes };
}
