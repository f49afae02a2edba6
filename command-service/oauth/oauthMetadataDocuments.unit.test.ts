import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientFromDocument } from './oauthMetadataDocuments.ts';

test('a document must name itself, use token_endpoint_auth_method none and valid redirect URIs', () => {
  const id = 'https://app.example/oauth/client.json';
  const client = clientFromDocument(id, { client_id: id, client_name: 'App', redirect_uris: ['http://127.0.0.1/cb'] });
  assert.ok(typeof client !== 'string');
  assert.deepEqual([client.kind, client.documentHost, client.name], ['metadataDocument', 'app.example', 'App']);
  assert.match(clientFromDocument(id, { client_id: 'https://other.example/c.json', redirect_uris: ['http://127.0.0.1/cb'] }) as string, /client_id/);
  assert.match(
    clientFromDocument(id, { client_id: id, redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'client_secret_basic' }) as string,
    /none/,
  );
  assert.match(clientFromDocument(id, { client_id: id, redirect_uris: ['http://evil.example/cb'] }) as string, /loopback|localhost/);
  assert.equal(typeof clientFromDocument(id, []), 'string');
});
