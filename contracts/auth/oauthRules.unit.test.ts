import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCodeChallenge, isMetadataDocumentClientId, matchRedirectUri, parseOAuthScopes, redirectUriProblem } from './oauthRules.ts';

test('redirect URIs: https, loopback http, private-use schemes; no fragments or other schemes', () => {
  for (const ok of ['https://app.example/cb', 'http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]:3000/cb', 'com.example.app:/cb'])
    assert.equal(redirectUriProblem(ok), null, ok);
  for (const bad of ['javascript:alert(1)', 'http://app.example/cb', 'https://app.example/cb#x', 'cb', 'data:text/html,x', '', 42])
    assert.notEqual(redirectUriProblem(bad), null, String(bad));
});

test('exact matching, except the port of a loopback http URI', () => {
  const registered = ['http://127.0.0.1/callback', 'https://app.example/cb'];
  assert.equal(matchRedirectUri(registered, 'http://127.0.0.1:51234/callback'), 'http://127.0.0.1/callback');
  assert.equal(matchRedirectUri(registered, 'http://127.0.0.1:51234/other'), null);
  assert.equal(matchRedirectUri(registered, 'http://127.0.0.1/callback?x=1'), null);
  assert.equal(matchRedirectUri(registered, 'https://app.example:444/cb'), null);
  assert.equal(matchRedirectUri(registered, 'https://app.example/cb/'), null);
});

test('scopes, PKCE challenges and metadata-document client ids', () => {
  assert.deepEqual(parseOAuthScopes('strata:write strata:read strata:read'), ['strata:read', 'strata:write']);
  assert.equal(parseOAuthScopes('strata:read admin'), null);
  assert.equal(isCodeChallenge('a'.repeat(43)), true);
  assert.equal(isCodeChallenge('a'.repeat(42)), false);
  assert.equal(isCodeChallenge(`${'a'.repeat(42)}+`), false);
  assert.equal(isMetadataDocumentClientId('https://app.example/client.json'), true);
  assert.equal(isMetadataDocumentClientId('https://app.example/'), false);
  assert.equal(isMetadataDocumentClientId('http://app.example/client.json'), false);
});
