import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../../contracts/index.ts';
import { parseWebhookSettings, parseWebhookUrl } from './webhookValidation.ts';

const strict = { allowPrivateAddresses: false };
const allowing = { allowPrivateAddresses: true };

function refusedUrl(url: string): string {
  let message = '';
  assert.throws(
    () => parseWebhookUrl(url, strict),
    (err) => {
      assert.ok(isAppError(err, 'BAD_USER_INPUT'));
      assert.deepEqual(
        err.details?.map((d) => d.path),
        ['/url'],
      );
      message = err.message;
      return true;
    },
    url,
  );
  return message;
}

describe('webhook URL address rules (changes.md §6.1)', () => {
  test('a non-public IP literal is refused, saying why and naming WEBHOOK_ALLOW_PRIVATE_ADDRESSES', () => {
    const message = refusedUrl('http://127.0.0.1:8080/hook');
    assert.match(message, /127\.0\.0\.1/);
    assert.match(message, /disallowed address/);
    assert.match(message, /WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true/);
    for (const url of [
      'https://10.1.2.3/hook',
      'http://192.168.0.10/',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0:9000/',
      'http://[::1]:3000/x',
      'http://[fd00::1]/',
      'http://[::ffff:127.0.0.1]/',
      // The URL parser normalizes other spellings of an IPv4 address; they are judged as the address.
      'http://2130706433/',
      'http://0x7f.1/',
    ]) {
      refusedUrl(url);
    }
  });

  test('public IP literals and host names pass: names are checked at delivery time', () => {
    for (const url of ['https://93.184.215.14/hook', 'http://[2606:4700::1111]/', 'http://localhost:3000/x', 'https://hooks.example.com/a']) {
      assert.equal(parseWebhookUrl(url, strict), url);
    }
  });

  test('WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true accepts private literals', () => {
    assert.equal(parseWebhookUrl('http://127.0.0.1:8080/hook', allowing), 'http://127.0.0.1:8080/hook');
    assert.equal(parseWebhookUrl('http://[::1]/', allowing), 'http://[::1]/');
  });

  test('an update checks the URL only when it names one', () => {
    const current = { url: 'http://127.0.0.1/old', types: ['webhook.ping'], projectName: null, branchNames: null, description: null };
    assert.deepEqual(parseWebhookSettings({ description: 'kept url' }, strict, current), { ...current, description: 'kept url' });
    assert.throws(
      () => parseWebhookSettings({ url: 'http://10.0.0.1/' }, strict, current),
      (err) => isAppError(err, 'BAD_USER_INPUT'),
    );
  });
});
