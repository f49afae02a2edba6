import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { destinationOf, selectsMutation } from './forwardWrites.ts';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('destinationOf', () => {
  test('writes, auth and MCP go to the command role; reads and rows/query stay', () => {
    const cases: [string, string, string][] = [
      ['POST', '/api/organizations', 'command'],
      ['PUT', '/api/me/password', 'command'],
      ['PATCH', '/api/revision/r1/table/t', 'command'],
      ['DELETE', '/endpoint/rest/acme/blog/master/draft/tables/posts/row/p1', 'command'],
      ['POST', '/API/Organizations', 'command'],
      ['GET', '/api/auth/me', 'command'],
      ['POST', '/api/auth/refresh', 'command'],
      ['GET', '/mcp', 'command'],
      ['DELETE', '/mcp', 'command'],
      ['POST', '/api/revision/r1/table/t/rows/query', 'local'],
      ['POST', '/endpoint/rest/acme/blog/master/head/tables/posts/rows/query', 'local'],
      ['GET', '/api/organizations', 'local'],
      ['HEAD', '/api/organizations', 'local'],
      ['OPTIONS', '/api/organizations', 'local'],
      ['POST', '/graphql', 'graphql'],
      ['POST', '/endpoint/graphql/acme/blog/master/draft', 'graphql'],
      ['GET', '/graphql', 'local'],
      ['POST', '/apiary', 'local'],
      ['POST', '/admin/', 'local'],
      ['POST', '/health/ready', 'local'],
    ];
    for (const [method, path, expected] of cases) assert.equal(destinationOf(method, path), expected, `${method} ${path}`);
  });
});

describe('selectsMutation', () => {
  test('follows the selected operation', () => {
    assert.equal(selectsMutation(json({ query: 'mutation { createUser(data: {}) { id } }' })), true);
    assert.equal(selectsMutation(json({ query: '{ me { id } }' })), false);
    assert.equal(selectsMutation(json({ query: 'query mutation { mutation }' })), false);
    const both = 'query Q { me { id } } mutation M { logout }';
    assert.equal(selectsMutation(json({ query: both, operationName: 'M' })), true);
    assert.equal(selectsMutation(json({ query: both, operationName: 'Q' })), false);
    // Ambiguous or broken documents are answered locally with the same error the command process would give.
    assert.equal(selectsMutation(json({ query: both })), false);
    assert.equal(selectsMutation(json({ query: 'mutation {' })), false);
    assert.equal(selectsMutation(Buffer.from('{"query": "mutation { a }"')), false);
    assert.equal(selectsMutation(json([{ query: 'mutation { a }' }])), false);
  });
});
