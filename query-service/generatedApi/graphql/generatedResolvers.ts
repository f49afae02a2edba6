import type { GraphQLFieldResolver } from 'graphql';
import { AppError, isPlainObject, type JsonObject, type TableModelNode } from '../../../contracts/index.ts';
import { toPlainJson } from '../../graphqlKit/scalars.ts';
import type { GeneratedTable, ProjectNames, TableNames } from '../naming.ts';
import { dataObjectTypes, type DataTypeContext } from './dataTypeDefs.ts';
import type {
  GeneratedDataSource,
  GeneratedListArgs,
  GeneratedPage,
  GeneratedPatchInput,
  GeneratedRow,
  GeneratedRowInput,
} from './generatedDataSource.ts';
import type { RowChangeKind } from '../../changes/rowPairing.ts';
import type { RequestLoaders } from './requestLoaders.ts';
import { selectsField } from './selectsField.ts';

/** Per-request context of a generated schema: the edge's request object and the request's row loaders. */
export type GeneratedGraphqlContext<TRequest> = { readonly request: TRequest; readonly loaders: RequestLoaders };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parents and args differ per field; each resolver narrows
type Resolver<TRequest> = GraphQLFieldResolver<any, GeneratedGraphqlContext<TRequest>, any>;
type FieldResolvers<TRequest> = Record<string, Resolver<TRequest>>;
export type GeneratedResolverMap<TRequest> = Record<string, FieldResolvers<TRequest>>;

export function rowNotFound(tableId: string, rowId: string): AppError {
  return new AppError('ROW_NOT_FOUND', `Row "${rowId}" not found in table "${tableId}"`);
}

/** The referenced table of an FK field (or FK array at any depth), when that table has GraphQL types. */
function foreignKeyTarget(ctx: DataTypeContext, node: TableModelNode): string | null {
  let current = node;
  while (current.kind === 'array') current = current.items;
  if (current.kind !== 'string' || current.foreignKey === undefined) return null;
  return ctx.graphqlTables.has(current.foreignKey) ? current.foreignKey : null;
}

async function referencedData<TRequest>(ctx: GeneratedGraphqlContext<TRequest>, tableId: string, id: unknown): Promise<JsonObject> {
  const rowId = typeof id === 'string' ? id : '';
  const row = rowId === '' ? null : await ctx.loaders.row(tableId, rowId);
  if (row === null) throw rowNotFound(tableId, rowId);
  return row.data;
}

/** Ids (nested arrays of ids) to the referenced rows' data; list items stay separate promises so one may fail. */
function resolveReferences<TRequest>(ctx: GeneratedGraphqlContext<TRequest>, tableId: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => resolveReferences(ctx, tableId, item));
  return referencedData(ctx, tableId, value);
}

function foreignKeyResolvers<TRequest>(ctx: DataTypeContext, table: GeneratedTable, names: TableNames): GeneratedResolverMap<TRequest> {
  const out: GeneratedResolverMap<TRequest> = {};
  for (const { node, type, flat } of dataObjectTypes(table, names)) {
    const fields: FieldResolvers<TRequest> = {};
    for (const { name, node: child } of node.properties) {
      const target = foreignKeyTarget(ctx, child);
      if (target === null) continue;
      fields[name] = (parent: Record<string, unknown>, _args, context) => resolveReferences(context, target, parent[name]);
    }
    if (Object.keys(fields).length > 0) {
      out[type] = fields;
      out[flat] = { ...fields };
    }
  }
  return out;
}

function listArgs(data: unknown): GeneratedListArgs {
  const plain = toPlainJson(data ?? {});
  if (!isPlainObject(plain)) return {};
  const { first, after, where, orderBy } = plain as Record<string, unknown>;
  // Assigned one by one, not as a literal of conditional spreads: see the spread-first rule in eslint.config.js.
  const args: { first?: number; after?: string; where?: unknown; orderBy?: unknown } = {};
  if (typeof first === 'number') args.first = first;
  if (typeof after === 'string') args.after = after;
  if (where !== undefined && where !== null) args.where = where;
  if (orderBy !== undefined && orderBy !== null) args.orderBy = orderBy;
  return args;
}

function flatPage(page: GeneratedPage) {
  return Object.assign({}, page, { edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: edge.node.data })) });
}

function queryResolvers<TRequest>(source: GeneratedDataSource<TRequest>, tableId: string, n: TableNames): FieldResolvers<TRequest> {
  const getRow = async (ctx: GeneratedGraphqlContext<TRequest>, id: string): Promise<GeneratedRow> => {
    const row = await source.getRow(ctx.request, tableId, id);
    if (row === null) throw rowNotFound(tableId, id);
    return row;
  };
  const f = n.rootFields;
  return {
    [f.one]: (_root, args: { id: string }, ctx) => getRow(ctx, args.id),
    [f.oneFlat]: async (_root, args: { id: string }, ctx) => (await getRow(ctx, args.id)).data,
    [f.many]: (_root, args: { data?: unknown }, ctx, info) =>
      source.listRows(ctx.request, tableId, listArgs(args.data), selectsField(info, 'totalCount')),
    [f.manyFlat]: async (_root, args: { data?: unknown }, ctx, info) =>
      flatPage(await source.listRows(ctx.request, tableId, listArgs(args.data), selectsField(info, 'totalCount'))),
  };
}

function mutationResolvers<TRequest>(source: GeneratedDataSource<TRequest>, tableId: string, n: TableNames): FieldResolvers<TRequest> {
  // A write invalidates the request's loaded rows, so later fields of the same request see it.
  const write =
    <TInput, TResult>(run: (request: TRequest, input: TInput) => Promise<TResult>, argName: 'data' | 'id') =>
    async (_root: unknown, args: Record<string, unknown>, ctx: GeneratedGraphqlContext<TRequest>): Promise<TResult> => {
      try {
        return await run(ctx.request, toPlainJson(args[argName]) as TInput);
      } finally {
        ctx.loaders.clearAll();
      }
    };
  const f = n.rootFields;
  return {
    [f.create]: write((r, input: GeneratedRowInput) => source.createRow(r, tableId, input), 'data'),
    [f.update]: write((r, input: GeneratedRowInput) => source.updateRow(r, tableId, input), 'data'),
    [f.patch]: write((r, input: GeneratedPatchInput) => source.patchRow(r, tableId, input), 'data'),
    [f.delete]: write((r, id: string) => source.deleteRow(r, tableId, id), 'id'),
    [f.createMany]: write((r, input: { rows: GeneratedRowInput[] }) => source.createRows(r, tableId, input.rows), 'data'),
    [f.updateMany]: write((r, input: { rows: GeneratedRowInput[] }) => source.updateRows(r, tableId, input.rows), 'data'),
    [f.patchMany]: write((r, input: { rows: GeneratedPatchInput[] }) => source.patchRows(r, tableId, input.rows), 'data'),
    [f.deleteMany]: write((r, input: { ids: string[] }) => source.deleteRows(r, tableId, input.ids), 'data'),
  };
}

/**
 * Resolvers of a generated schema: root fields call the data source; Node `json` is the stored data; FK fields
 * load the referenced rows through the request loaders (batched per table and execution step); `_entities`
 * references load through the same loaders (null when absent).
 */
export function generatedResolvers<TRequest>(options: {
  readonly names: ProjectNames;
  readonly tables: readonly GeneratedTable[];
  readonly writable: boolean;
  readonly dataSource: GeneratedDataSource<TRequest>;
}): GeneratedResolverMap<TRequest> {
  const { names, tables, writable, dataSource } = options;
  const ctx: DataTypeContext = { names, graphqlTables: new Set(tables.map((table) => table.id)) };
  const map: GeneratedResolverMap<TRequest> = {};
  const query: FieldResolvers<TRequest> = {};
  const mutation: FieldResolvers<TRequest> = {};
  for (const table of tables) {
    const n = names.tables.get(table.id);
    if (n === undefined) continue;
    Object.assign(map, foreignKeyResolvers<TRequest>(ctx, table, n));
    map[n.types.node] = {
      json: (row: GeneratedRow) => row.data,
      __resolveReference: async (ref: { id?: unknown }, context: GeneratedGraphqlContext<TRequest>) => {
        const row = typeof ref.id === 'string' ? await context.loaders.row(table.id, ref.id) : null;
        // A copy: the federation resolver tags the result with __typename; loaded rows are shared.
        return row === null ? null : { ...row };
      },
    };
    Object.assign(query, queryResolvers(dataSource, table.id, n));
    if (writable) Object.assign(mutation, mutationResolvers(dataSource, table.id, n));
  }
  query[names.changesField] = (
    _root,
    args: { since: string; first?: number | null; after?: string | null; changes?: RowChangeKind[] | null },
    context,
  ) => dataSource.changesSince(context.request, { since: args.since, first: args.first, after: args.after, changes: args.changes ?? null });
  map.Query = query;
  if (Object.keys(mutation).length > 0) map.Mutation = mutation;
  return map;
}
