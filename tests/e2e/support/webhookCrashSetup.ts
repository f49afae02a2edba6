import assert from 'node:assert/strict';
import type { Receiver } from './webhookReceiver.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

/**
 * The starting point of the webhook crash tests: as `admin` on `baseUrl`, organization `acme`, project `blog`, a
 * `rows.changed` webhook to `receiver` at `path` that answers 503, a table `items` and `count` rows `r0…` written
 * one request each (so one event each). Returns the row ids.
 */
export async function writeRowsToFailingHook(baseUrl: string, password: string, receiver: Receiver, path: string, count = 20): Promise<string[]> {
  let token = '';
  const ok = async (method: string, route: string, body?: unknown, status = 200): Promise<Json> => {
    const res = await fetch(`${baseUrl}/api${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    assert.equal(res.status, status, `${method} ${route}: ${text}`);
    return JSON.parse(text || 'null');
  };
  token = (await ok('POST', '/auth/login', { username: 'admin', password })).accessToken;
  await ok('POST', '/organizations', { organizationId: 'acme' }, 201);
  await ok('POST', '/organization/acme/projects', { projectName: 'blog' }, 201);
  const hook = await ok('POST', '/organization/acme/webhooks', { url: `${receiver.url}${path}`, types: ['rows.changed'] }, 201);
  receiver.secrets(path, [hook.secret]);
  receiver.reply(path, () => ({ status: 503 }));
  const draft = (await ok('GET', '/organization/acme/project/blog/branch/master')).draftRevisionId;
  const schema = { type: 'object', properties: { n: { type: 'number', default: 0 } }, additionalProperties: false, required: ['n'] };
  await ok('POST', `/revision/${draft}/tables`, { tableId: 'items', schema }, 201);
  const rowIds = Array.from({ length: count }, (_, i) => `r${i}`);
  for (const rowId of rowIds) await ok('POST', `/revision/${draft}/table/items/rows`, { rowId, data: { n: 1 } }, 201);
  return rowIds;
}
