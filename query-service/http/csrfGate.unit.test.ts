import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'express';
import { csrfAllows, isUnsafeMethod, ownOriginOf, type OriginPolicy } from './csrfGate.ts';

/** A request as express presents it: `protocol` and `host` already honour TRUST_PROXY. */
function request(headers: Record<string, string>, protocol = 'http', host = 'data.example.com:8080'): Request {
  return { headers, protocol, host } as unknown as Request;
}

const hosts = { anyHost: false, allowedHosts: ['data.example.com'], publicHost: null };
const policy: OriginPolicy = { publicUrl: null, corsOrigins: ['https://admin.example.com'], hosts };

describe('CSRF gate (auth.md §6.1)', () => {
  test('Sec-Fetch-Site same-origin and none pass; other values only with an allowlisted Origin', () => {
    assert.equal(csrfAllows(request({ 'sec-fetch-site': 'same-origin' }), policy), true);
    assert.equal(csrfAllows(request({ 'sec-fetch-site': 'none' }), policy), true);
    assert.equal(csrfAllows(request({ 'sec-fetch-site': 'cross-site' }), policy), false);
    assert.equal(csrfAllows(request({ 'sec-fetch-site': 'same-site', origin: 'http://data.example.com:8080' }), policy), false);
    assert.equal(csrfAllows(request({ 'sec-fetch-site': 'cross-site', origin: 'https://admin.example.com' }), policy), true);
  });

  test('without Sec-Fetch-Site an Origin must be the own origin or allowlisted; null never passes', () => {
    assert.equal(csrfAllows(request({ origin: 'http://data.example.com:8080' }), policy), true);
    // Exact comparison (auth.md §6.2): no case folding, trailing slash or default-port normalisation.
    for (const spelling of [
      'HTTP://DATA.example.com:8080',
      'http://data.example.com:8080/',
      'https://admin.example.com/',
      'https://Admin.example.com',
    ]) {
      assert.equal(csrfAllows(request({ origin: spelling }), policy), false, spelling);
    }
    assert.equal(csrfAllows(request({ origin: 'https://admin.example.com' }), policy), true);
    assert.equal(csrfAllows(request({ origin: 'https://evil.example' }), policy), false);
    assert.equal(csrfAllows(request({ origin: 'http://data.example.com:9090' }), policy), false);
    assert.equal(csrfAllows(request({ origin: 'null' }), policy), false);
    assert.equal(csrfAllows(request({ origin: 'null' }), { publicUrl: null, corsOrigins: ['null'] }), false);
    assert.equal(csrfAllows(request({ origin: 'not a url' }), policy), false);
  });

  test('no browser signals pass', () => {
    assert.equal(csrfAllows(request({}), policy), true);
  });

  test('PUBLIC_URL replaces the request-derived own origin', () => {
    const behindProxy = { publicUrl: 'https://data.example.com', corsOrigins: [] };
    assert.equal(ownOriginOf(request({}), behindProxy.publicUrl), 'https://data.example.com');
    assert.equal(csrfAllows(request({ origin: 'https://data.example.com' }), behindProxy), true);
    assert.equal(csrfAllows(request({ origin: 'http://data.example.com:8080' }), behindProxy), false);
    // Scheme and host as express derives them through trusted proxies (X-Forwarded-Proto/-Host).
    assert.equal(ownOriginOf(request({}, 'https', 'data.example.com:443'), null, hosts), 'https://data.example.com');
  });

  test('the own origin is derived only from an allowed host (auth.md §6.4)', () => {
    assert.equal(ownOriginOf(request({}, 'http', 'evil.example:8080'), null, hosts), null);
    assert.equal(csrfAllows(request({ origin: 'http://evil.example:8080' }, 'http', 'evil.example:8080'), policy), false);
    assert.equal(ownOriginOf(request({}, 'http', 'localhost:8080'), null), 'http://localhost:8080');
    assert.equal(ownOriginOf(request({}), null), null, 'data.example.com is not allowed by default');
  });

  test('unsafe methods are POST, PUT, PATCH and DELETE', () => {
    assert.deepEqual(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'].map(isUnsafeMethod), [false, false, false, true, true, true, true]);
  });
});
