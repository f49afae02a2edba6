import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphQLError, Kind, parse, specifiedRules, validate, type OperationDefinitionNode } from 'graphql';
import { isAppError } from '../../contracts/index.ts';
import { QUERY_LIMITS, assertOperationLimits, assertQueryText, limitsReadVariables, measureOperation, queryLimitsRule } from './queryLimits.ts';
import { buildSystemSchema } from '../systemApi/graphql/systemSchema.ts';

const schema = buildSystemSchema();
const limitErrors = (query: string) =>
  validate(schema, parse(query), [...specifiedRules, queryLimitsRule()])
    .filter((e) => e.extensions.code === 'QUERY_TOO_COMPLEX')
    .map((e) => e.message);
const operationOf = (query: string) => {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  assert.ok(operation);
  return { document, operation };
};

function nestedBranches(levels: number): string {
  // organization(1) > projects(2) > edges(3) > node(4) > rootBranch(5) > project(6) > rootBranch ... > id
  let inner = 'id';
  for (let i = 0; i < levels; i++) inner = `rootBranch { project { ${inner} } }`;
  return `{ project(data: {organizationId: "o", projectName: "p"}) { ${inner} } }`;
}

describe('query limits', () => {
  test('depth counts nested fields (fragments expanded, introspection free)', () => {
    const { document, operation } = operationOf(nestedBranches(5));
    assert.equal(measureOperation(schema, document, operation).depth, 12);
    assert.deepEqual(limitErrors(nestedBranches(5)), []);
    assert.deepEqual(limitErrors(nestedBranches(6)), ['Query depth 14 exceeds the limit of 12']);
    const viaFragment = `query { ...F } fragment F on Query { ${nestedBranches(6).slice(1, -1)} }`;
    assert.deepEqual(limitErrors(viaFragment), ['Query depth 14 exceeds the limit of 12']);
    const introspection = `{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }`;
    assert.deepEqual(limitErrors(introspection), []);
  });

  test('more than 30 aliases are refused', () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
    assert.deepEqual(limitErrors(aliases(30)), []);
    assert.deepEqual(limitErrors(aliases(31)), ['Query has 31 aliases, more than the limit of 30']);
  });

  test('connections multiply the cost of their selection by first (default 100)', () => {
    const query = (first: string) =>
      `{ projects(data: {organizationId: "o"${first}}) { edges { node { branches(data: {first: 100}) { totalCount edges { node { id name } } } } } } }`;
    // projects: 1 + first * (edges 1 + node 1 + branches (1 + 100 * (totalCount 1 + edges 1 + node 1 + id 1 + name 1)))
    const cost = (first: number) => 1 + first * (1 + 1 + 1 + 100 * 5);
    const { document, operation } = operationOf(query(''));
    assert.equal(measureOperation(schema, document, operation).cost, cost(100));
    assert.deepEqual(limitErrors(query(', first: 198')), []);
    assert.deepEqual(limitErrors(query(', first: 200')), [`Query cost ${cost(200)} exceeds the limit of 100000`]);
  });

  test('a first from variables counts with its default at validation and its value per request', () => {
    const query = `query($n: Int = 10) { projects(data: {organizationId: "o", first: $n}) { edges { node { branches(data: {first: 1000}) { edges { node { id } } } } } } }`;
    assert.deepEqual(limitErrors(query), []);
    const { document, operation } = operationOf(query);
    assert.doesNotThrow(() => assertOperationLimits(schema, document, operation, { n: 20 }));
    assert.throws(
      () => assertOperationLimits(schema, document, operation, { n: 1000 }),
      (err) => err instanceof GraphQLError && err.extensions.code === 'QUERY_TOO_COMPLEX' && /Query cost \d+ exceeds/.test(err.message),
    );
    const dataVariable = `query($d: GetProjectsInput!) { projects(data: $d) { edges { node { branches(data: {first: 1000}) { totalCount } } } } }`;
    const parsed = operationOf(dataVariable);
    assert.equal(
      measureOperation(schema, parsed.document, parsed.operation, { d: { organizationId: 'o', first: 3 } }).cost,
      1 + 3 * (1 + 1 + (1 + 1000 * 1)),
    );
  });

  test('documents over 100 KiB are refused before parsing', () => {
    assert.doesNotThrow(() => assertQueryText('x'.repeat(QUERY_LIMITS.maxBytes)));
    assert.throws(
      () => assertQueryText('x'.repeat(QUERY_LIMITS.maxBytes + 1)),
      (err) => isAppError(err, 'QUERY_TOO_COMPLEX'),
    );
  });
});

test('limitsReadVariables: only variables inside `first` or `data` arguments can change the measure', () => {
  assert.equal(limitsReadVariables(parse('query($id: String!) { post(id: $id) { id } }')), false);
  assert.equal(limitsReadVariables(parse('{ posts(data: { first: 2 }) { totalCount } }')), false);
  assert.equal(limitsReadVariables(parse('query($n: Int) { posts(first: $n) { totalCount } }')), true);
  assert.equal(limitsReadVariables(parse('query($n: Int) { posts(data: { where: {}, first: $n }) { totalCount } }')), true);
  assert.equal(limitsReadVariables(parse('query($d: In) { ...F } fragment F on Query { posts(data: $d) { totalCount } }')), true);
});
