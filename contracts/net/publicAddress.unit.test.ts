import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressLiteralOf, isPublicAddress } from './publicAddress.ts';

test('only public addresses are reachable by outbound requests (IPv4-mapped forms judged by their IPv4 address)', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    'not-an-ip',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
  for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) assert.equal(isPublicAddress(address), true, address);
});

test('an address literal is recognised in http(s) URLs, brackets removed', () => {
  assert.equal(addressLiteralOf(new URL('http://127.0.0.1:8080/x')), '127.0.0.1');
  assert.equal(addressLiteralOf(new URL('https://[::1]/x')), '::1');
  assert.equal(addressLiteralOf(new URL('https://example.com/x')), null);
});
