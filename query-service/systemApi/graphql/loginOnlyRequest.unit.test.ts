import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoginOnlyRequest } from './loginOnlyRequest.ts';

const login = 'login(data: { username: "a", password: "b" }) { accessToken }';

describe('isLoginOnlyRequest', () => {
  test('a mutation of login fields (and __typename) only', () => {
    assert.equal(isLoginOnlyRequest({ query: `mutation { ${login} }` }), true);
    assert.equal(isLoginOnlyRequest({ query: `mutation { __typename a: ${login} }` }), true);
    assert.equal(isLoginOnlyRequest({ query: `mutation A { ${login} } query B { me { id } }`, operationName: 'A' }), true);
  });

  test('anything else is not', () => {
    assert.equal(isLoginOnlyRequest({ query: `mutation { ${login} deleteEndpoint(data: { endpointId: "x" }) }` }), false);
    assert.equal(isLoginOnlyRequest({ query: `mutation A { ${login} } query B { me { id } }`, operationName: 'B' }), false);
    assert.equal(isLoginOnlyRequest({ query: `mutation A { ${login} } query B { me { id } }` }), false);
    assert.equal(isLoginOnlyRequest({ query: 'mutation { __typename }' }), false);
    assert.equal(isLoginOnlyRequest({ query: `mutation { ...F } fragment F on Mutation { ${login} }` }), false);
    assert.equal(isLoginOnlyRequest({ query: '{ login }' }), false);
    assert.equal(isLoginOnlyRequest({ query: 'mutation {' }), false);
    assert.equal(isLoginOnlyRequest(undefined), false);
    assert.equal(isLoginOnlyRequest([{ query: `mutation { ${login} }` }]), false);
  });
});
