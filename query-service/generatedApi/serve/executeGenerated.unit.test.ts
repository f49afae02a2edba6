import assert from 'node:assert/strict';
import { test } from 'node:test';
import { specifiedRules, type ValidationRule } from 'graphql';
import { queryLimitsRule } from '../../graphqlKit/queryLimits.ts';
import { blogTables } from '../../testing/blogFixture.ts';
import { buildGeneratedSchema } from '../graphql/buildGeneratedSchema.ts';
import { createFakeDataSource } from '../../testing/fakeDataSource.ts';
import { createBoundedCache } from '../../../contracts/index.ts';
import { GRAPHQL_EXECUTION_DEFAULTS, createCompiledOperations } from './compiledOperations.ts';
import { literalRules } from './documentShape.ts';
import { prepareDocument } from './executeGenerated.ts';
import type { CompiledGenerated } from './generatedSchemaCache.ts';

function compiledWithSpy(): { compiled: CompiledGenerated; fullRuns: () => number } {
  const generated = buildGeneratedSchema({
    projectName: 'blog',
    mode: 'head',
    tables: blogTables,
    rootFieldPrefix: false,
    dataSource: createFakeDataSource({}),
  });
  let runs = 0;
  const spy: ValidationRule = () => {
    runs += 1;
    return {};
  };
  const limits = queryLimitsRule();
  const compiled: CompiledGenerated = {
    generated: generated as unknown as CompiledGenerated['generated'],
    rules: [...specifiedRules, spy, limits],
    literalRules: literalRules(limits),
    documents: createBoundedCache({ maxEntries: 10, maxBytes: 1e6 }),
    validShapes: createBoundedCache({ maxEntries: 10, maxBytes: 1e6 }),
    operations: createCompiledOperations(GRAPHQL_EXECUTION_DEFAULTS),
  };
  return { compiled, fullRuns: () => runs };
}

test('a text whose shape passed every rule is checked by the literal rules only', () => {
  const { compiled, fullRuns } = compiledWithSpy();
  assert.equal(prepareDocument(compiled, '{ post(id: "p1") { id } }').ok, true);
  assert.equal(fullRuns(), 1);
  assert.equal(prepareDocument(compiled, '{ post(id: "p2") { id } }').ok, true);
  assert.equal(fullRuns(), 1);
  // A literal of the wrong kind is another shape: every rule runs (and fails it).
  const wrongKind = prepareDocument(compiled, '{ post(id: 2) { id } }');
  assert.equal(fullRuns(), 2);
  assert.deepEqual(wrongKind.ok ? [] : wrongKind.errors.map((e) => e.message), ['String cannot represent a non string value: 2']);
  // Same shape, a value the literal rules refuse.
  const tooDeep = prepareDocument(compiled, '{ posts(data: { first: 100000 }) { edges { node { id title: id } } } }');
  assert.equal(tooDeep.ok, false);
  assert.equal(prepareDocument(compiled, '{ posts(data: { first: 2 }) { edges { node { id title: id } } } }').ok, true);
  const runs = fullRuns();
  const again = prepareDocument(compiled, '{ posts(data: { first: 100001 }) { edges { node { id title: id } } } }');
  assert.equal(fullRuns(), runs);
  assert.deepEqual(again.ok ? [] : again.errors.map((e) => e.extensions.code), ['QUERY_TOO_COMPLEX']);
});

test('a text whose shape failed validation is checked by every rule again', () => {
  const { compiled, fullRuns } = compiledWithSpy();
  assert.equal(prepareDocument(compiled, '{ post(id: "p1") { nope } }').ok, false);
  assert.equal(prepareDocument(compiled, '{ post(id: "p2") { nope } }').ok, false);
  assert.equal(fullRuns(), 2);
});
