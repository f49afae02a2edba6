import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphqlLiteral } from './graphqlLiteral.ts';

test('graphqlLiteral writes JSON as GraphQL input, escaping strings and refusing odd keys', () => {
  assert.equal(
    graphqlLiteral({ name: 'ci "prod"\n', readOnly: true, projectIds: ['a', 'b'], expiresAt: undefined, n: 2, org: null }),
    '{name: "ci \\"prod\\"\\n", readOnly: true, projectIds: ["a", "b"], n: 2, org: null}',
  );
  assert.throws(() => graphqlLiteral({ 'x) { evil }': 1 }), /not a GraphQL name/);
  assert.throws(() => graphqlLiteral(Number.NaN));
});
