import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema } from 'graphql';
import { documentProblems } from './documentProblems.ts';
import { generateOperationModule } from './operationTypes.ts';

const schema = buildSchema(`
  scalar DateTime
  scalar JSON
  enum Role { admin, user }
  type PageInfo { hasNextPage: Boolean!, endCursor: String }
  type Table { id: String!, schema: JSON!, tags: [String!], createdAt: DateTime! }
  type TableConnection { totalCount: Int!, pageInfo: PageInfo!, edges: [TableEdge!]! }
  type TableEdge { node: Table! }
  input Filter { equals: String, in: [String!] }
  input TablesInput { revisionId: ID!, first: Int = 100, where: Filter, role: Role! }
  type Query { tables(data: TablesInput!): TableConnection!, role: Role }
  type Mutation { drop(id: ID!): Boolean! }
`);

const file = (source: string) => [{ file: 'x.graphql', source }];
const lineOf = (module: string, start: string): string => module.split('\n').find((line) => line.startsWith(start)) ?? '';

test('result types follow the selection: nullability, lists, aliases, fragments, conditions, JSON shapes', () => {
  const module = generateOperationModule(
    schema,
    file(`
      fragment Page on PageInfo { hasNextPage endCursor }
      query Tables($data: TablesInput!, $more: Boolean!) {
        tables(data: $data) { total: totalCount pageInfo { ...Page } edges { node { id schema tags createdAt @include(if: $more) __typename } } }
        role
      }
    `),
    'test',
  );
  assert.equal(
    lineOf(module, 'export type TablesResult'),
    "export type TablesResult = { tables: { total: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { node: { id: string; schema: JsonSchema; tags: string[] | null; createdAt?: string; __typename: 'Table' } }[] }; role: Role | null };",
  );
  assert.equal(lineOf(module, 'export type TablesVariables'), 'export type TablesVariables = { data: TablesInput; more: boolean };');
  // Inputs: required only when non-null without a default; enums as unions; only the types used are emitted.
  assert.equal(
    lineOf(module, 'export type TablesInput'),
    'export type TablesInput = { revisionId: string; first?: number | null; where?: Filter | null; role: Role };',
  );
  assert.equal(lineOf(module, 'export type Filter'), 'export type Filter = { equals?: string | null; in?: readonly string[] | null };');
  assert.equal(lineOf(module, 'export type Role'), "export type Role = 'admin' | 'user';");
  assert.match(module, /import type \{ JsonSchema \} from '\.\.\/types\.ts';/);
  assert.match(
    lineOf(module, 'export const TablesDocument'),
    /source: 'query Tables\(\$data:TablesInput!\$more:Boolean!\)\{.*\}fragment Page on PageInfo\{hasNextPage endCursor\}'/,
  );
});

test('operations without variables, mutations, and a batch template where `# @batch` asks for one', () => {
  const module = generateOperationModule(schema, file('query Role { role }\n# @batch\nmutation Drop($id: ID!) { drop(id: $id) }'), 'test');
  assert.equal(lineOf(module, 'export type RoleVariables'), 'export type RoleVariables = Record<string, never>;');
  assert.equal(lineOf(module, 'export type DropResult'), 'export type DropResult = { drop: boolean };');
  assert.match(
    lineOf(module, 'export const DropDocument'),
    /batch: \{ kind: 'mutation', variables: \['id'\], definitions: '\$id__I__:ID!', selections: 'b__I___drop:drop\(id:\$id__I__\)', fragments: '' \}/,
  );
  assert.doesNotMatch(lineOf(module, 'export const RoleDocument'), /batch/);
});

test('problems name the file and place: unknown fields, duplicates, unnamed and unused definitions', () => {
  assert.deepEqual(documentProblems(schema, file('query A { tables(data: {revisionId: "r", role: admin}) { totalCount rows } }')), [
    'x.graphql:1:69: Cannot query field "rows" on type "TableConnection".',
  ]);
  assert.deepEqual(
    documentProblems(schema, [
      { file: 'a.graphql', source: 'query A { role }\nfragment F on PageInfo { endCursor }' },
      { file: 'b.graphql', source: 'query A { role }\n{ role }\n# @batch\nfragment G on PageInfo { endCursor }\n' },
    ]),
    [
      'b.graphql: "A" is also defined in a.graphql',
      'b.graphql: every operation needs a name',
      'a.graphql: fragment "F" is never used',
      'b.graphql: fragment "G" is never used',
    ],
  );
  assert.throws(() => generateOperationModule(schema, file('query A { nope }'), 'test'), /Cannot query field "nope" on type "Query"/);
});
