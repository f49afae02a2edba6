import { invariant } from '../../../contracts/index.ts';
import { fieldChangeTypeDefs, rowChangeFields, rowChangeKindTypeDefs } from '../../graphqlKit/changeTypeDefs.ts';
import { rowQueryTypeDefs, sharedScalarTypeDefs } from '../../graphqlKit/rowQueryTypeDefs.ts';
import type { GeneratedTable, ProjectNames, TableNames } from '../naming.ts';
import { dataTypeDefs, describe, type DataTypeContext } from './dataTypeDefs.ts';

export type GeneratedSchemaMode = 'head' | 'draft' | 'pinned';

const FEDERATION_LINK = `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])\n`;

const PAGE_INFO = `type PageInfo @shareable {
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
  endCursor: String
}
`;

/** The types of the `_changes` root field (changes.md §3), shared by every subgraph like PageInfo. */
const CHANGE_TYPES = `${rowChangeKindTypeDefs}
"A row changed between \`since\` and the served revision; \`before\`/\`after\` are its data."
type RowChange @shareable {
  tableId: String!
${rowChangeFields}
}

${fieldChangeTypeDefs(' @shareable')}
type RowChangeConnection @shareable {
  edges: [RowChangeEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type RowChangeEdge @shareable {
  node: RowChange!
  cursor: String!
}
`;

/**
 * Without GRAPHQL_ROOT_FIELD_PREFIX every endpoint names its feed `_changes`: `@shareable` keeps two projects'
 * subgraphs composable (§6), and a supergraph that needs each project's feed sets the prefix (`blog_changes`).
 */
function changesField(names: ProjectNames): string {
  const shareable = names.changesField === '_changes' ? ' @shareable' : '';
  return `  "Row changes of every table since an earlier revision of this endpoint's history, by table id and row id."
  ${names.changesField}(since: ID!, first: Int, after: String, changes: [RowChangeKind!]): RowChangeConnection!${shareable}`;
}

/** Node, connections and the list input of one table (§5.1). */
function rowTypeDefs(P: string, tableId: string, n: TableNames): string {
  const t = n.types;
  return `${describe(`A row of table ${JSON.stringify(tableId)}.`)}type ${t.node} @key(fields: "id") {
  id: String!
  createdAt: DateTime!
  updatedAt: DateTime!
  readonly: Boolean!
  data: ${t.entity}!
  "The stored data with raw foreign-key ids and filled system fields."
  json: JSON!
}

type ${t.connection} {
  edges: [${t.edge}!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ${t.edge} {
  node: ${t.node}!
  cursor: String!
}

type ${t.flatConnection} {
  edges: [${t.flatEdge}!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ${t.flatEdge} {
  node: ${t.flat}!
  cursor: String!
}

input ${t.getInput} {
  first: Int
  after: String
  where: ${t.whereInput}
  orderBy: [${t.orderByInput}!]
}
${rowQueryTypeDefs(`${P}${n.Ts}`)}`;
}

/** Inputs of the draft mutations of one table (§5.1). */
function writeInputTypeDefs(n: TableNames): string {
  const t = n.types;
  return `input ${t.createInput} {
  id: String!
  data: JSON!
}

"A full replace of the row's data."
input ${t.updateInput} {
  id: String!
  data: JSON!
}

input ${t.patchInput} {
  id: String!
  patches: [PatchOperationInput!]!
}

input ${t.createManyInput} {
  rows: [${t.createInput}!]!
}

input ${t.updateManyInput} {
  rows: [${t.updateInput}!]!
}

input ${t.patchManyInput} {
  rows: [${t.patchInput}!]!
}

input ${t.deleteManyInput} {
  ids: [String!]!
}
`;
}

function queryFields(n: TableNames): string {
  const f = n.rootFields;
  const t = n.types;
  return `  ${f.one}(id: String!): ${t.node}!
  ${f.many}(data: ${t.getInput}): ${t.connection}!
  ${f.oneFlat}(id: String!): ${t.flat}!
  ${f.manyFlat}(data: ${t.getInput}): ${t.flatConnection}!`;
}

function mutationFields(project: ProjectNames, n: TableNames): string {
  const f = n.rootFields;
  const t = n.types;
  return `  ${f.create}(data: ${t.createInput}!): ${t.node}!
  ${f.update}(data: ${t.updateInput}!): ${t.node}!
  ${f.patch}(data: ${t.patchInput}!): ${t.node}!
  ${f.delete}(id: String!): ${project.deleteResult}!
  ${f.createMany}(data: ${t.createManyInput}!): ${project.bulkResult}!
  ${f.updateMany}(data: ${t.updateManyInput}!): ${project.bulkResult}!
  ${f.patchMany}(data: ${t.patchManyInput}!): ${project.bulkResult}!
  ${f.deleteMany}(data: ${t.deleteManyInput}!): ${project.bulkResult}!`;
}

/** Tables that appear in GraphQL: those whose root object has properties, in creation order. */
export function graphqlTablesOf(names: ProjectNames, tables: readonly GeneratedTable[]): GeneratedTable[] {
  const byId = new Map(tables.map((table) => [table.id, table]));
  const out: GeneratedTable[] = [];
  for (const id of names.tables.keys()) {
    const table = byId.get(id);
    if (table !== undefined && table.model.root.properties.length > 0) out.push(table);
  }
  return out;
}

/**
 * The subgraph SDL source of a generated schema (generated-api.md §5–§6): federation link, shared scalars and
 * inputs, per table the data, row and input types, the Query fields (with `_changes`, changes.md §3) and — in draft
 * mode — the Mutation fields.
 */
export function generatedTypeDefs(names: ProjectNames, tables: readonly GeneratedTable[], mode: GeneratedSchemaMode): string {
  const included = graphqlTablesOf(names, tables);
  const ctx: DataTypeContext = { names, graphqlTables: new Set(included.map((table) => table.id)) };
  const parts = [FEDERATION_LINK, sharedScalarTypeDefs];
  if (included.length === 0) {
    parts.push(PAGE_INFO, CHANGE_TYPES, `type Query {\n${changesField(names)}\n}\n`);
    return parts.join('\n');
  }
  const writable = mode === 'draft';
  const tableNames = included.map((table) => {
    const n = names.tables.get(table.id);
    invariant(n !== undefined, `table ${table.id} has names`);
    return n;
  });
  parts.push(PAGE_INFO);
  included.forEach((table, i) => {
    const n = tableNames[i] as TableNames;
    parts.push(dataTypeDefs(ctx, table, n), rowTypeDefs(names.prefix, table.id, n));
    if (writable) parts.push(writeInputTypeDefs(n));
  });
  parts.push(CHANGE_TYPES);
  parts.push(`type Query {\n${[...tableNames.map(queryFields), changesField(names)].join('\n')}\n}\n`);
  if (writable) {
    parts.push(`type ${names.deleteResult} {\n  id: String!\n  success: Boolean!\n}\n`);
    parts.push(`type ${names.bulkResult} {\n  success: Boolean!\n  "Rows affected."\n  count: Int!\n}\n`);
    parts.push(`type Mutation {\n${tableNames.map((n) => mutationFields(names, n)).join('\n')}\n}\n`);
  }
  return parts.join('\n');
}
