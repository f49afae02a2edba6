// The Webhooks screens (admin-ui.md §3.1, changes.md §6) in Debian's Chromium against a real `strata serve` and a
// loopback receiver that verifies every request with the `standardwebhooks` library (so the secret the UI shows
// once is the one that signs): create, ping delivered, a failing receiver shows a failed delivery, redeliver
// succeeds, edit, rotate, delete; both viewports; no console error or foreign request.
// Screenshots in tests/.tmp/screenshots/webhooks/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertChromium, ensureAdminUiBuilt, openBrowser, startServer, type Server, type Session } from './support/adminUiHarness.ts';
import { startReceiver, type Receiver } from './support/webhookReceiver.ts';

const PATH = '/ui-hook';

describe('Admin UI: Webhooks', { concurrency: false }, () => {
  let server: Server;
  let receiver: Receiver;
  let s: Session;
  let secret = '';
  let webhookPage = '';

  /** The delivery id the notice reports after pressing Ping. */
  const ping = async (): Promise<string> => {
    await s.page.getByRole('button', { name: 'Ping', exact: true }).click();
    const notice = await s.page.getByText(/Ping queued as delivery /).textContent();
    const id = /delivery (\S+)\./.exec(notice ?? '')?.[1];
    assert.ok(id, `delivery id in "${notice}"`);
    return id;
  };
  const deliveryRow = (id: string, status: string) => s.page.locator(`tr[data-delivery="${id}"][data-status="${status}"]`);

  before(async () => {
    assertChromium();
    ensureAdminUiBuilt();
    receiver = await startReceiver();
    server = await startServer({
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '200',
      WEBHOOK_TIMEOUT_MS: '3000',
    });
    s = await openBrowser(server.url, 'webhooks');
  });
  after(async () => {
    await s?.browser.close();
    await server?.stop();
    await receiver?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('creates a webhook from the organization page; its secret is shown once with a warning and a copy button', async () => {
    const { page } = s;
    await page.goto('/admin/');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.goto('/admin/org/admin');
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Webhooks of admin' }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await s.shot('webhooks-empty');

    await page.getByLabel('Payload URL').fill(`${receiver.url}${PATH}`);
    await page.getByLabel('Description').fill('UI test receiver');
    await page.getByLabel('branch.created').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secretField = page.getByLabel('Webhook signing secret');
    await secretField.waitFor();
    secret = await secretField.inputValue();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    receiver.secrets(PATH, [secret]);
    await page.getByText('It is shown only once').waitFor();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await page.getByRole('cell', { name: /UI test receiver/ }).waitFor();
    await s.shot('webhook-created-secret');

    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    assert.equal(await secretField.count(), 0);
    await page.reload();
    await page.getByRole('cell', { name: /UI test receiver/ }).waitFor();
    assert.equal((await page.content()).includes(secret), false, 'the secret is not shown again');
    assert.equal(await page.getByText('revision.committed, branch.created').count(), 1);
    await s.shot('webhooks-list');
  });

  test('ping is delivered; a failing receiver shows a failed delivery; redeliver delivers it', async () => {
    const { page } = s;
    await page.getByRole('link', { name: `${receiver.url}${PATH}` }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    webhookPage = new URL(page.url()).pathname;
    await page.getByText('No deliveries yet.').waitFor();

    const first = await ping();
    const delivered = deliveryRow(first, 'succeeded');
    await delivered.waitFor();
    assert.match((await delivered.textContent()) ?? '', /webhook\.ping.*succeeded.*204/);
    const received = receiver.on(PATH);
    assert.equal(received.length, 1);
    assert.deepEqual([received[0]?.id, received[0]?.body.type, received[0]?.verifiedBy], [first, 'webhook.ping', [secret]]);
    await s.shot('webhook-ping-delivered');

    receiver.reply(PATH, () => ({ status: 500 }));
    const second = await ping();
    const failed = deliveryRow(second, 'failed');
    await failed.waitFor();
    assert.match((await failed.textContent()) ?? '', /failed.*2.*500/, 'two attempts (first and one retry), both answered 500');
    await s.shot('webhook-delivery-failed');

    receiver.reply(PATH, () => ({ status: 204 }));
    await failed.getByRole('button', { name: /Redeliver/ }).click();
    const redelivered = deliveryRow(second, 'succeeded');
    await redelivered.waitFor();
    assert.match((await redelivered.textContent()) ?? '', /succeeded.*3.*204/);
    assert.deepEqual(
      receiver.on(PATH).map((r) => [r.id, r.answered]),
      [
        [first, 204],
        [second, 500],
        [second, 500],
        [second, 204],
      ],
      'the redelivery keeps its webhook-id',
    );
    await s.shot('webhook-redelivered');
  });

  test('works at 390×844 without horizontal scrolling of the page', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${webhookPage.replace(/\/[^/]+$/, '')}`);
      await page.getByRole('cell', { name: /UI test receiver/ }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'the list fits');
      await s.shot('mobile-webhooks');
      await page.goto(webhookPage);
      await page.locator('tr[data-status="succeeded"]').first().waitFor();
      assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'the webhook screen fits');
      await s.shot('mobile-webhook');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  test('edits, rotates the secret (shown once, both signatures verify) and deletes after confirmation', async () => {
    const { page } = s;
    await page.goto(webhookPage);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Description').fill('renamed receiver');
    await page.getByLabel(/^Enabled/).uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.getByText('disabled', { exact: true }).waitFor();
    await page.getByLabel(/^Enabled/).check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('enabled', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.getByLabel('Webhook signing secret').inputValue();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await s.shot('webhook-rotated-secret');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    receiver.secrets(PATH, [rotated, secret]);
    const third = await ping();
    await deliveryRow(third, 'succeeded').waitFor();
    assert.deepEqual(receiver.on(PATH).at(-1)?.verifiedBy, [rotated, secret], 'new and previous secret both sign during the overlap');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await s.shot('webhook-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('heading', { name: 'Webhooks of admin' }).waitFor();
    await page.getByText('No webhooks yet.').waitFor();
    await s.shot('webhooks-after-delete');
  });
});
