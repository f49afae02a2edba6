import assert from 'node:assert/strict';
import { assertChromium, ensureAdminUiBuilt, openBrowser, startServer, type Server, type Session } from './adminUiHarness.ts';

/** A call of the system REST API as `admin`; fails the test on any non-2xx answer. */
export type AdminApi = (method: string, path: string, body?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

export type AdminUiSuite = { readonly server: Server; readonly s: Session; readonly api: AdminApi; close(): Promise<void> };

/**
 * A fresh `strata serve`, Chromium with screenshots in `folder`, an API caller holding admin's bearer token, and the
 * browser signed in as admin/admin on the Organizations screen (after `seed`, which prepares data through the API).
 */
export async function openAdminUiSuite(folder: string, seed: (api: AdminApi) => Promise<void>): Promise<AdminUiSuite> {
  assertChromium();
  ensureAdminUiBuilt();
  const server = await startServer({ LOG_LEVEL: 'warn' });
  const s = await openBrowser(server.url, folder);
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin' }),
  });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  const api: AdminApi = async (method, path, body) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text === '' ? null : JSON.parse(text);
  };
  await seed(api);
  const { page } = s;
  await page.goto('/admin/');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Organizations' }).waitFor();
  return {
    server,
    s,
    api,
    async close() {
      await s.browser.close();
      await server.stop();
    },
  };
}
