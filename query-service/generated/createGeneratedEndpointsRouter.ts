import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import type { Authenticator, CommandGateway, SystemStateSource, ViewStore } from '../../contracts/index.ts';
import { sendGraphqlError } from '../graphql/graphqlErrors.ts';
import { jsonBody, type JsonBodyOptions } from '../http/jsonBody.ts';
import type { MinPositionOptions } from '../http/minPosition.ts';
import { notFound } from '../http/routeFallbacks.ts';
import { sendError } from '../http/sendError.ts';
import type { WriteConsistencyOptions } from '../http/writeConsistency.ts';
import { createRowReader } from '../readers/rowReader.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { createTableModels } from '../readers/tableModels.ts';
import { createRowCounts } from './dataSource/rowCounts.ts';
import { createRowIndexes } from './dataSource/rowIndexes.ts';
import { createServedTablesLoader } from './dataSource/servedTables.ts';
import { createViewDataSource } from './dataSource/viewDataSource.ts';
import { createGeneratedGraphqlHandler } from './serve/generatedGraphqlHandler.ts';
import { createGeneratedRestHandler } from './serve/generatedRestHandler.ts';
import { createGeneratedSchemaCache } from './serve/generatedSchemaCache.ts';
import { createGraphqlIdePage } from './serve/graphqlIdePage.ts';
import { createOpenApiCache, createSwaggerDocs } from './serve/restDocs.ts';

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
  /** The GraphiQL build (index.html + assets/); default admin-ui/dist-graphiql; null serves the minimal IDE page. */
  readonly graphiqlDir?: string | null;
};

const DEFAULT_GRAPHIQL_DIR = fileURLToPath(new URL('../../admin-ui/dist-graphiql/', import.meta.url));

/**
 * The generated APIs (generated-api.md), mounted at `/endpoint`: GraphQL at `/graphql/{org}/{project}/{branch}/{mode}`
 * and REST below `/rest/{org}/{project}/{branch}/{mode}`, served from the views for the revision each endpoint serves
 * now, writes through the gateway; plus the bundled GraphiQL and Swagger UI files. Without Apollo: documents are
 * parsed and validated once per compiled schema and query text, then executed by graphql-js.
 */
export function createGeneratedEndpointsRouter(deps: GeneratedEndpointsDeps): Router {
  const log = deps.log.child({ component: 'generatedEndpoints' });
  const schemas = createSchemaReader(deps.viewStore);
  const loadTables = createServedTablesLoader(deps.viewStore, schemas, createTableModels());
  const dataSource = createViewDataSource({
    viewStore: deps.viewStore,
    rows: createRowReader(deps.viewStore),
    schemas,
    gateway: deps.gateway,
    indexes: createRowIndexes(deps.viewStore, log),
    counts: createRowCounts(deps.viewStore),
  });
  const access = { systemState: deps.systemState, authenticator: deps.authenticator, minPosition: deps.minPosition };
  const ide = createGraphqlIdePage(deps.graphiqlDir === undefined ? DEFAULT_GRAPHIQL_DIR : deps.graphiqlDir, log);
  const docs = createSwaggerDocs();
  const graphql = createGeneratedGraphqlHandler({
    ...access,
    consistency: deps.consistency,
    loadTables,
    schemas: createGeneratedSchemaCache({ dataSource, rootFieldPrefix: deps.rootFieldPrefix }),
    ide,
    log,
  });
  const rest = createGeneratedRestHandler({
    ...access,
    consistency: deps.consistency,
    loadTables,
    dataSource,
    openApi: createOpenApiCache(),
    sendDocs: docs.sendPage,
  });
  const parseBody = jsonBody(deps.body);

  const router = express.Router();
  router.use('/swagger-ui', docs.assets);
  router.use('/graphiql', ide.assets);
  // Body failures (413, 415, bad JSON) answer in each surface's envelope (errors.md §1, §3.1).
  router.use('/graphql', (req, res, next) => {
    Promise.resolve(parseBody(req, res, next)).catch((err: unknown) => sendGraphqlError(res, err));
  });
  router.use('/rest', (req, res, next) => {
    Promise.resolve(parseBody(req, res, next)).catch((err: unknown) => sendError(res, err));
  });
  router.all('/graphql/:org/:project/:branch/:mode', graphql);
  router.all('/rest/:org/:project/:branch/:mode{/*rest}', rest);
  router.use(notFound);
  return router;
}
