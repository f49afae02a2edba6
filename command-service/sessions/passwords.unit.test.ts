import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPasswordVerifier, hashPassword, verifyPassword } from './passwords.ts';

test('hashes are self-describing scrypt strings with a 16-byte salt and a 64-byte key', async () => {
  const hash = await hashPassword('correct horse');
  const [scheme, params, salt, key] = hash.split('$');
  assert.equal(scheme, 'scrypt');
  assert.equal(params, 'N=32768,r=8,p=1');
  assert.equal(Buffer.from(salt ?? '', 'base64').length, 16);
  assert.equal(Buffer.from(key ?? '', 'base64').length, 64);
  assert.notEqual(await hashPassword('correct horse'), hash, 'a fresh salt per hash');
});

test('verify accepts the password and nothing else', async () => {
  const hash = await hashPassword('correct horse');
  assert.equal(await verifyPassword('correct horse', hash), true);
  assert.equal(await verifyPassword('correct horse ', hash), false);
  assert.equal(await verifyPassword('', hash), false);
});

test('malformed or hostile hashes never verify', async () => {
  assert.equal(await verifyPassword('x', 'plain'), false);
  assert.equal(await verifyPassword('x', 'scrypt$N=1073741824,r=8,p=1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5'), false);
  assert.equal(await verifyPassword('x', 'bcrypt$N=32768,r=8,p=1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5'), false);
});

test('the verifier burns a dummy verification for unknown users and says no', async () => {
  const verifier = createPasswordVerifier();
  assert.equal(await verifier.verify('anything', null), false);
  const hash = await hashPassword('secret-password');
  assert.equal(await verifier.verify('secret-password', hash), true);
});
