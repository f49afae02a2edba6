// The Admin UI imports nothing outside admin-ui (it talks to the public API only), so the few spec lists it needs
// before any request are copies. This test keeps each copy equal to the list the server uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookEventTypeNames } from '../../contracts/index.ts';
import { WEBHOOK_EVENT_TYPES } from '../../admin-ui/src/screens/webhookQueries.ts';

test('the Admin UI offers exactly the webhook event types the server accepts', () => {
  assert.deepEqual([...WEBHOOK_EVENT_TYPES], [...webhookEventTypeNames]);
});
