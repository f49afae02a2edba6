import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { invariant, type BranchView, type OrganizationView, type ProjectView, type RevisionView, type TableView } from '../../../contracts/index.ts';
import type { LazyConnection, SystemOperations } from '../operations/systemOperations.ts';
import { isReadName, runRead } from '../operations/systemReads.ts';
import { authQueryFields } from './authResolvers.ts';
import { dryRunQueryFields } from './mutationResolvers.ts';
import { operatorQueryFields } from './operatorResolvers.ts';
import type { ResolverMap } from './systemSchema.ts';
import {
  dataOf,
  revisionIdOfTable,
  tagTable,
  tagTables,
  type DataArgs,
  type SystemGraphqlContext,
  type TaggedTable,
} from './systemGraphqlContext.ts';

type Resolver<TParent> = GraphQLFieldResolver<TParent, SystemGraphqlContext, DataArgs>;

/**
 * Query root fields (each the read of the same name; the authentication fields are in authResolvers.ts) and the nested lookups of the object types, all through
 * SystemOperations so every nested field runs the same permission checks as its root field.
 */
export function createQueryResolvers(schema: GraphQLSchema, ops: SystemOperations): ResolverMap {
  const query: Record<string, Resolver<unknown>> = {};
  for (const name of Object.keys(schema.getQueryType()?.getFields() ?? {})) {
    if (authQueryFields.includes(name) || dryRunQueryFields.includes(name) || operatorQueryFields.includes(name)) continue;
    invariant(isReadName(name), `Query.${name} has a read`);
    query[name] = (_root, args, ctx) => runRead(ops, name, ctx.request, dataOf(args));
  }
  query.table = async (_root, args, ctx) => {
    const data = dataOf(args);
    return tagTable((await runRead(ops, 'table', ctx.request, data)) as TableView, String(data.revisionId));
  };
  query.tables = async (_root, args, ctx) => {
    const data = dataOf(args);
    return tagTables((await runRead(ops, 'tables', ctx.request, data)) as LazyConnection<TableView>, String(data.revisionId));
  };

  const organization: Record<string, Resolver<OrganizationView>> = {
    myRole: (org, _args, ctx) => ops.myRole(ctx.request, org.id),
    projects: (org, args, ctx) => ops.projects(ctx.request, { ...dataOf(args), organizationId: org.id }),
  };
  const project: Record<string, Resolver<ProjectView>> = {
    rootBranch: (p, _args, ctx) => ops.branch(ctx.request, { organizationId: p.organizationId, projectName: p.name, branchName: p.rootBranchName }),
    branches: (p, args, ctx) => ops.branchesOfProject(ctx.request, p.id, dataOf(args)),
  };
  const branch: Record<string, Resolver<BranchView>> = {
    head: (b, _args, ctx) => ops.revision(ctx.request, { revisionId: b.headRevisionId }),
    draft: (b, _args, ctx) => ops.revision(ctx.request, { revisionId: b.draftRevisionId }),
    start: (b, _args, ctx) => ops.revision(ctx.request, { revisionId: b.startRevisionId }),
    project: (b, _args, ctx) => ops.projectById(ctx.request, b.projectId),
    revisions: (b, args, ctx) => ops.revisionsOfBranch(ctx.request, b.id, dataOf(args)),
  };
  const revision: Record<string, Resolver<RevisionView>> = {
    branch: (r, _args, ctx) => ops.branchById(ctx.request, r.branchId),
    tables: async (r, args, ctx) => tagTables(await ops.tables(ctx.request, { ...dataOf(args), revisionId: r.id }), r.id),
    endpoints: (r, _args, ctx) => ops.revisionEndpoints(ctx.request, { revisionId: r.id }),
  };
  const tableRef = (t: TaggedTable) => ({ revisionId: revisionIdOfTable(t), tableId: t.id });
  const table: Record<string, Resolver<TaggedTable>> = {
    foreignKeysTo: (t, _args, ctx) => ops.foreignKeysTo(ctx.request, tableRef(t)),
    foreignKeysBy: (t, _args, ctx) => ops.foreignKeysBy(ctx.request, tableRef(t)),
    rows: (t, args, ctx) => ops.rows(ctx.request, { ...dataOf(args), ...tableRef(t) }),
  };
  return { Query: query, Organization: organization, Project: project, Branch: branch, Revision: revision, Table: table };
}
