import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'graphql';
import { blogTables } from '../../testing/blogFixture.ts';
import { buildGeneratedSchema } from '../graphql/buildGeneratedSchema.ts';
import { createFakeDataSource } from '../../testing/fakeDataSource.ts';
import { GRAPHQL_EXECUTION_DEFAULTS, createCompiledOperations, type OperationUse } from './compiledOperations.ts';

const { schema } = buildGeneratedSchema({
  projectName: 'blog',
  mode: 'head',
  tables: blogTables,
  rootFieldPrefix: false,
  dataSource: createFakeDataSource({}),
});
const byId = parse('query One($id: String!) { post(id: $id) { id } }');

function counting(config = GRAPHQL_EXECUTION_DEFAULTS) {
  const outcomes: boolean[] = [];
  return { outcomes, operations: createCompiledOperations(config, (compiled) => outcomes.push(compiled)) };
}

test('an operation runs interpreted until the configured execution, then compiled, compiled once', () => {
  const { outcomes, operations } = counting();
  const use: OperationUse = { runs: 0, declined: false };
  const first = GRAPHQL_EXECUTION_DEFAULTS.compileOnExecution;
  assert.ok(first > 1, 'a document used once must not be compiled');
  for (let run = 1; run < first; run++) assert.equal(operations.compiledFor(use, schema, byId, undefined), null, `run ${run}`);
  assert.deepEqual(outcomes, []);
  const compiled = operations.compiledFor(use, schema, byId, undefined);
  assert.notEqual(compiled, null);
  assert.equal(operations.compiledFor(use, schema, byId, undefined), compiled);
  assert.deepEqual(outcomes, [true]);
});

test('variables of recursive input types are declined at once and never tried again', () => {
  const { outcomes, operations } = counting(Object.assign({}, GRAPHQL_EXECUTION_DEFAULTS, { compileOnExecution: 1 }));
  const list = parse('query List($d: BlogGetPostsInput) { posts(data: $d) { totalCount } }');
  const use: OperationUse = { runs: 0, declined: false };
  const started = performance.now();
  assert.equal(operations.compiledFor(use, schema, list, undefined), null);
  assert.ok(performance.now() - started < 1000, 'graphql-jit was asked to unroll a recursive input type');
  assert.equal(operations.compiledFor(use, schema, list, undefined), null);
  assert.deepEqual(outcomes, [false]);
  // The same input as a literal compiles.
  const literal = parse('{ posts(data: { where: { OR: [{ id: { equals: "p1" } }] } }) { totalCount } }');
  assert.notEqual(operations.compiledFor({ runs: 0, declined: false }, schema, literal, undefined), null);
});

test('compiled operations are bounded by entries (least recently used first)', () => {
  const { outcomes, operations } = counting({ compileOnExecution: 1, maxDocumentsPerSchema: 10, maxCompiledOperations: 2 });
  const uses = [0, 1, 2].map((): OperationUse => ({ runs: 0, declined: false }));
  for (const use of uses) operations.compiledFor(use, schema, byId, undefined);
  assert.equal(outcomes.length, 3);
  operations.compiledFor(uses[2] as OperationUse, schema, byId, undefined);
  assert.equal(outcomes.length, 3);
  operations.compiledFor(uses[0] as OperationUse, schema, byId, undefined);
  assert.equal(outcomes.length, 4);
});
