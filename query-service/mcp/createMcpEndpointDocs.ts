import {
  AppError,
  findRevision,
  invariant,
  isAppError,
  tableInScope,
  type EndpointType,
  type EndpointView,
  type SystemStateSource,
  type ViewStore,
} from '../../contracts/index.ts';
import type { GeneratedDataSource } from '../generatedApi/graphql/generatedDataSource.ts';
import { buildGeneratedSchema } from '../generatedApi/graphql/buildGeneratedSchema.ts';
import type { GeneratedTable } from '../generatedApi/naming.ts';
import { buildOpenApi } from '../generatedApi/rest/buildOpenApi.ts';
import type { RequestContext, SystemOperations } from '../systemApi/operations/systemOperations.ts';
import { revisionScopeOf } from '../readers/revisionScope.ts';
import { createSchemaReader } from '../readers/schemaReader.ts';
import { createTableModels } from '../readers/tableModels.ts';
import { restReadBody, runRead } from '../systemApi/operations/systemReads.ts';
import type { McpEndpointDocs } from './mcpEndpointDocs.ts';

export type McpEndpointDocsDeps = {
  readonly operations: SystemOperations;
  readonly viewStore: ViewStore;
  readonly systemState: SystemStateSource;
  /** GRAPHQL_ROOT_FIELD_PREFIX (generated-api.md §6); default false. */
  readonly rootFieldPrefix?: boolean;
};

/**
 * Printing an SDL never executes a resolver, so the schema built for it gets a data source that refuses every
 * call instead of one bound to a request.
 */
const printOnly = new Proxy(
  {},
  { get: () => () => Promise.reject(new Error('invariant violated: a schema built for its SDL is never executed')) },
) as GeneratedDataSource<unknown>;

/**
 * The documents of a generated endpoint for the MCP tools, built with the generated-API builders from the revision
 * the endpoint serves. Authorization is the system reads': read Endpoint (operations.endpoint) and read Table
 * (operations.tables); like generated introspection, the documents show every table of the revision.
 */
export function createMcpEndpointDocs(deps: McpEndpointDocsDeps): McpEndpointDocs {
  const { operations, systemState } = deps;
  const schemas = createSchemaReader(deps.viewStore);
  const models = createTableModels();

  async function endpointWithTables(ctx: RequestContext, endpointId: string, type: EndpointType) {
    const endpoint: EndpointView = await operations.endpoint(ctx, { endpointId });
    if (endpoint.type !== type) {
      throw new AppError('BAD_USER_INPUT', `Endpoint "${endpointId}" is a ${endpoint.type} endpoint, not ${type}`, [
        { path: '/endpointId', message: `must name a ${type} endpoint` },
      ]);
    }
    // The read Table check of the revision (an empty page reads nothing).
    await operations.tables(ctx, { revisionId: endpoint.revisionId, first: 0 });
    const state = await systemState.current();
    const revision = findRevision(state, endpoint.revisionId);
    invariant(revision !== null, 'an endpoint that was just read serves a live revision');
    const versions = await schemas.allTables(revisionScopeOf(state, revision));
    const tables: GeneratedTable[] = versions.map((version) => ({
      id: version.tableId,
      createdAt: version.createdAt,
      model: models(version.schema).model,
    }));
    return { endpoint, tables };
  }

  /** The first row of each table the caller may read (the document's examples name them, as on `B/openapi.json`). */
  async function exampleRowIds(ctx: RequestContext, revisionId: string, tables: readonly GeneratedTable[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const { id: tableId } of tables) {
      if (!tableInScope(ctx.principal, tableId)) continue;
      try {
        const page = (await restReadBody(await runRead(operations, 'rows', ctx, { revisionId, tableId, first: 1 }))) as {
          edges: { node: { id: string } }[];
        };
        const first = page.edges[0];
        if (first !== undefined) ids.set(tableId, first.node.id);
      } catch (err) {
        // A caller who may read the tables but not their rows gets a document without row examples.
        if (!isAppError(err, 'FORBIDDEN')) throw err;
      }
    }
    return ids;
  }

  return {
    async graphqlSchema(ctx, endpointId) {
      const { endpoint, tables } = await endpointWithTables(ctx, endpointId, 'GRAPHQL');
      const built = buildGeneratedSchema({
        projectName: endpoint.projectName,
        mode: endpoint.mode,
        tables,
        rootFieldPrefix: deps.rootFieldPrefix ?? false,
        dataSource: printOnly,
      });
      return { sdl: built.sdl };
    },

    async openApiSpec(ctx, endpointId) {
      const { endpoint, tables } = await endpointWithTables(ctx, endpointId, 'REST_API');
      const project = await operations.project(ctx, { organizationId: endpoint.organizationId, projectName: endpoint.projectName });
      return buildOpenApi({
        org: endpoint.organizationId,
        projectName: endpoint.projectName,
        branchName: endpoint.branchName,
        segment: endpoint.mode === 'pinned' ? endpoint.revisionId : endpoint.mode,
        revisionId: endpoint.revisionId,
        mode: endpoint.mode,
        isPublic: project.isPublic,
        tables,
        exampleRowIds: await exampleRowIds(ctx, endpoint.revisionId, tables),
      });
    },
  };
}
