import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { commonHeaders } from '../http/commonHeaders.ts';
import { errorHandler } from '../http/sendError.ts';
import { notFound } from '../http/routeFallbacks.ts';
import { ADMIN_UI_CSP, createAdminUiRouter } from './adminUiRouter.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/admin/assets/index-abc123.js"></script></head><body></body></html>';

async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(commonHeaders);
  app.use(createAdminUiRouter({ dir }));
  app.use(notFound);
  app.use(errorHandler);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('admin UI router', () => {
  let temp: string;
  let built: { url: string; close: () => Promise<void> };
  let missing: { url: string; close: () => Promise<void> };

  before(async () => {
    temp = await mkdtemp(join(tmpdir(), 'strata-admin-ui-'));
    const dist = join(temp, 'dist');
    await mkdir(join(dist, 'assets'), { recursive: true });
    await writeFile(join(dist, 'index.html'), INDEX);
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'export {};\n');
    await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(join(temp, 'secret.txt'), 'outside');
    built = await serve(dist);
    missing = await serve(join(temp, 'never-built'));
  });
  after(async () => {
    await built.close();
    await missing.close();
    await rm(temp, { recursive: true, force: true });
  });

  test('GET / and /admin redirect to /admin/', async () => {
    for (const path of ['/', '/admin']) {
      const res = await fetch(`${built.url}${path}`, { redirect: 'manual' });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get('location'), '/admin/');
    }
  });

  test('/admin/ and deep links answer index.html with the security headers, never cached', async () => {
    for (const path of ['/admin/', '/admin/org/acme/project/blog/branch/master/draft', '/admin/keys']) {
      const res = await fetch(`${built.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('content-security-policy'), ADMIN_UI_CSP);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(await res.text(), INDEX);
    }
    const csp = ADMIN_UI_CSP;
    for (const directive of ['script-src', 'style-src', 'img-src', 'connect-src']) assert.match(csp, new RegExp(`${directive} 'self'(;|$)`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  test('hashed assets are cached for a year; a missing asset is a JSON 404, not the page', async () => {
    const asset = await fetch(`${built.url}/admin/assets/index-abc123.js`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.equal(await asset.text(), 'export {};\n');

    const gone = await fetch(`${built.url}/admin/assets/index-old.js`);
    assert.equal(gone.status, 404);
    assert.equal(((await gone.json()) as { code: string }).code, 'ROUTE_NOT_FOUND');

    const icon = await fetch(`${built.url}/admin/favicon.svg`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('cache-control'), 'public, max-age=3600');
  });

  test('paths cannot leave the built directory', async () => {
    for (const path of ['/admin/assets/..%2f..%2fsecret.txt', '/admin/assets/%2e%2e/%2e%2e/secret.txt', '/admin/..%2fsecret.txt']) {
      const res = await fetch(`${built.url}${path}`);
      assert.notEqual(await res.text(), 'outside', path);
    }
  });

  test('other methods get 405 with Allow', async () => {
    const res = await fetch(`${built.url}/admin/keys`, { method: 'POST' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, HEAD');
  });

  test('without a build /admin/ answers 503 saying how to build it', async () => {
    const res = await fetch(`${missing.url}/admin/`);
    assert.equal(res.status, 503);
    assert.match(await res.text(), /npm run build:admin-ui/);
    assert.equal(res.headers.get('content-security-policy'), ADMIN_UI_CSP);
  });
});
