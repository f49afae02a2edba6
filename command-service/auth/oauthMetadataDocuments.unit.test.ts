import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientFromDocument, isPublicAddress } from './oauthMetadataDocuments.ts';

test('only public addresses may serve a client metadata document', () => {
  for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', 'not-an-ip']) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(address), true, address);
});

test('a document must name itself, use token_endpoint_auth_method none and valid redirect URIs', () => {
  const id = 'https://app.example/oauth/client.json';
  const client = clientFromDocument(id, { client_id: id, client_name: 'App', redirect_uris: ['http://127.0.0.1/cb'] });
  assert.ok(typeof client !== 'string');
  assert.deepEqual([client.kind, client.documentHost, client.name], ['metadataDocument', 'app.example', 'App']);
  assert.match(clientFromDocument(id, { client_id: 'https://other.example/c.json', redirect_uris: ['http://127.0.0.1/cb'] }) as string, /client_id/);
  assert.match(clientFromDocument(id, { client_id: id, redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'client_secret_basic' }) as string, /none/);
  assert.match(clientFromDocument(id, { client_id: id, redirect_uris: ['http://evil.example/cb'] }) as string, /loopback|localhost/);
  assert.equal(typeof clientFromDocument(id, []), 'string');
});
