// The Admin UI in Debian's Chromium against a real `strata serve` (admin-ui.md §4): every flow of the spec,
// screenshots of each screen in tests/.tmp/screenshots/, and no console error or foreign request anywhere.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertChromium, ensureAdminUiBuilt, openBrowser, startServer, type Server, type Session } from './support/adminUiHarness.ts';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views'],
  properties: { title: { type: 'string', default: '' }, views: { type: 'number', default: 0 } },
};

describe('Admin UI in Chromium', { concurrency: false }, () => {
  let server: Server;
  let s: Session;
  const cookie = async (name: string): Promise<string | undefined> => (await s.context.cookies()).find((c) => c.name === name)?.value;

  before(async () => {
    assertChromium();
    ensureAdminUiBuilt();
    // Short-lived access tokens: the app must live on refreshes.
    server = await startServer({ JWT_ACCESS_TOKEN_TTL_SECONDS: '60', LOG_LEVEL: 'warn' });
    s = await openBrowser(server.url);
  });
  after(async () => {
    await s?.browser.close();
    await server?.stop();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('GET / leads to the login page; wrong password is shown inline; admin/admin signs in by keyboard', async () => {
    const { page } = s;
    await page.goto('/');
    assert.equal(new URL(page.url()).pathname, '/admin/');
    await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    await s.shot('login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
    await s.shot('login-error');

    await page.getByLabel('Username').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type('admin');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    assert.ok(await cookie('svc_at'), 'svc_at cookie set by login');
    assert.equal(await cookie('svc_session'), '1');
    assert.equal(await page.evaluate('localStorage.length + sessionStorage.length'), 0, 'no token in web storage');
    await s.shot('organizations');
  });

  test('creates a project, a table and rows (validation details inline), filters, and commits', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'admin', exact: true }).last().click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.getByText('No projects yet').waitFor();
    await s.shot('organization');
    await page.getByLabel('Project name').fill('blog');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Project blog' }).waitFor();
    await page.getByRole('link', { name: 'master' }).first().waitFor();
    await s.shot('project');

    await page.getByRole('link', { name: 'master' }).first().click();
    await page.getByRole('heading', { name: 'Branch master' }).waitFor();
    await page.getByLabel('Table id').fill('posts');
    // The schema editor opens on its fields (tests/e2e/adminUiTeams.ui.test.ts); JSON stays available as the second mode.
    await page.getByRole('group', { name: 'Schema editing mode' }).getByRole('button', { name: 'JSON' }).click();
    await page.getByLabel('Schema (JSON Schema subset)').fill(JSON.stringify(SCHEMA, null, 2));
    await page.getByRole('button', { name: 'Create table' }).click();
    await page.getByRole('heading', { name: 'Table posts' }).waitFor();

    await page.getByLabel('Row id').fill('hello');
    // The row form's JSON mode (the form itself: tests/e2e/adminUiRowForm.ui.test.ts).
    await page.getByRole('group', { name: 'Row editing mode' }).getByRole('button', { name: 'JSON' }).click();
    await page.getByLabel('Row data (JSON)').fill('{"title": 42, "views": 10}');
    await page.getByRole('button', { name: 'Add row' }).click();
    const details = page.getByRole('list', { name: 'Validation errors' });
    await details.getByText('/title').waitFor();
    await s.shot('row-invalid');
    await page.getByLabel('Row data (JSON)').fill('{"title": "Hello", "views": 10}');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('Row hello added.').waitFor();
    await page.getByLabel('Row id').fill('world');
    await page.getByLabel('Row data (JSON)').fill('{"title": "World", "views": 3}');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('1–2 of 2 rows').waitFor();

    await page.getByLabel('Field', { exact: true }).selectOption('views');
    await page.getByLabel('Operator', { exact: true }).selectOption('gte');
    await page.getByLabel('Value', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page.getByText('1–1 of 1 rows').waitFor();
    await s.shot('table-filtered');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('link', { name: 'hello' }).click();
    await page.getByRole('heading', { name: 'Row hello' }).waitFor();
    await s.shot('row');

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'master (draft)' }).click();
    await page.getByLabel('Commit comment').fill('first posts');
    await page.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('Committed revision #1.').waitFor();
    // Newest first: the draft, then the new HEAD with its comment, then the start revision.
    const history = page.locator('ol.history > li');
    await history
      .nth(1)
      .filter({ hasText: /#1.*HEAD.*first posts/ })
      .waitFor();
    assert.match((await history.nth(2).textContent()) ?? '', /#0.*start/);
    await s.shot('committed');
    await page.getByRole('link', { name: 'HEAD #1' }).click();
    await page.getByText(/^Read-only/).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Commit' }).count(), 0, 'no commit on HEAD');
    await s.shot('head-read-only');
    await page.getByRole('link', { name: 'posts' }).click();
    await page.getByRole('heading', { name: 'Table posts' }).waitFor();
    await page.getByLabel('Schema (read-only)').waitFor();
    await s.shot('table-read-only');
  });

  test('creates GraphQL and REST endpoints with working links', async () => {
    const { page } = s;
    await page.goto('/admin/org/admin/project/blog/endpoints');
    await page.getByText('No endpoints yet').waitFor();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByText('Endpoint created at').waitFor();
    const graphiql = await page.getByRole('link', { name: /GraphiQL/ }).getAttribute('href');
    assert.equal(graphiql, '/endpoint/graphql/admin/blog/master/head');
    const answer = await page.request.post(graphiql, { data: { query: '{ posts { totalCount edges { node { id data { title views } } } } }' } });
    assert.equal(answer.status(), 200);
    assert.deepEqual(((await answer.json()) as { data: { posts: { totalCount: number } } }).data.posts.totalCount, 2);

    await page.getByLabel('API type').selectOption('REST_API');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const openapi = await page.getByRole('link', { name: /openapi\.json/ }).getAttribute('href');
    await page.getByRole('link', { name: /Swagger UI/ }).waitFor();
    assert.ok(openapi);
    assert.equal((await page.request.get(openapi)).status(), 200);
    await s.shot('endpoints');
  });

  test('visibility is a status; Make public… asks first, saying who reads what; Make private… names the endpoints', async () => {
    const { page } = s;
    const anonymousRead = async (): Promise<number> => {
      const res = await fetch(`${server.url}/endpoint/graphql/admin/blog/master/head`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ posts { totalCount } }' }),
      });
      return res.status;
    };
    await page.goto('/admin/org/admin/project/blog');
    const visibility = page.getByRole('region', { name: 'Visibility' });
    await visibility.getByText('Private', { exact: true }).waitFor();
    await visibility.getByText(/Only members of the organization and of this project/).waitFor();
    assert.equal(await page.getByRole('checkbox').count(), 0, 'visibility is a status, not a checkbox');
    assert.equal(await anonymousRead(), 401);

    // Making data public asks first, names who will read what, and starts on Cancel.
    await visibility.getByRole('button', { name: 'Make public…' }).click();
    const publish = page.getByRole('dialog', { name: 'Make project blog public?' });
    await publish.getByText('Anyone will be able to read all data of blog without signing in').waitFor();
    await publish.getByText(/every branch, revision, table and row of blog, including each branch's uncommitted draft/).waitFor();
    await publish.getByRole('list', { name: 'Endpoints of blog' }).getByText('/endpoint/graphql/admin/blog/master/head').waitFor();
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Cancel', 'the safe choice has the focus');
    await s.shot('make-public-confirm');
    await publish.getByRole('button', { name: 'Cancel' }).click();
    await visibility.getByText('Private', { exact: true }).waitFor();
    assert.equal(await anonymousRead(), 401, 'Cancel changes nothing');

    await visibility.getByRole('button', { name: 'Make public…' }).click();
    await publish.getByRole('button', { name: 'Make public' }).click();
    await visibility.getByText('Project blog is now public.').waitFor();
    await visibility.getByText('Public', { exact: true }).waitFor();
    assert.equal(await anonymousRead(), 200);
    await s.shot('project-public');

    // Making it private names the endpoints that stop answering anonymous readers.
    await visibility.getByRole('button', { name: 'Make private…' }).click();
    const unpublish = page.getByRole('dialog', { name: 'Make project blog private?' });
    const endpoints = unpublish.getByRole('list', { name: 'Endpoints of blog' });
    await endpoints.getByText('/endpoint/graphql/admin/blog/master/head').waitFor();
    await endpoints.getByText('/endpoint/rest/admin/blog/master/head').waitFor();
    await unpublish.getByText(/anonymous readers get 401/).waitFor();
    await s.shot('make-private-confirm');
    await unpublish.getByRole('button', { name: 'Make private' }).click();
    await visibility.getByText('Project blog is now private.').waitFor();
    assert.equal(await anonymousRead(), 401);
  });

  test('an API key secret is shown once (gone after reload); rotate shows a new one; revoke stops it', async () => {
    const { page } = s;
    const meWith = (secret: string): Promise<Response> => fetch(`${server.url}/api/me`, { headers: { 'X-Api-Key': secret } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByLabel('Key name').fill('ci');
    await page.getByLabel('Read-only (no writes of any kind)').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretField = page.getByLabel('API key secret');
    await secretField.waitFor();
    const first = await secretField.inputValue();
    assert.match(first, /^svc_[0-9A-Za-z]{22}$/);
    await page.getByText('It is shown only once').waitFor();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await s.shot('api-key-secret');
    assert.equal((await meWith(first)).status, 200);

    await page.reload();
    await page.getByRole('cell', { name: 'ci', exact: true }).waitFor();
    assert.equal((await page.content()).includes(first), false, 'the secret is not shown again');
    assert.equal(await page.getByLabel('API key secret').count(), 0);
    await s.shot('api-keys');

    await page.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('dialog', { name: 'Rotate “ci”?' }).getByRole('button', { name: 'Rotate key' }).click();
    await page.getByText('It is shown only once').waitFor();
    const second = await page.getByLabel('API key secret').inputValue();
    assert.notEqual(second, first);
    assert.equal((await meWith(first)).status, 401, 'the rotated-away secret fails at once');
    assert.equal((await meWith(second)).status, 200);
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    assert.equal(await page.getByLabel('API key secret').count(), 0);

    await page.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “ci”?' });
    await dialog.waitFor();
    await s.shot('api-key-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('Key “ci” was revoked.').waitFor();
    await page.getByLabel('Show revoked keys').check();
    await page.getByText('revoked', { exact: true }).first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Revoke' }).count(), 0, 'no active key left');
    const refused = await meWith(second);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { code: string }).code, 'API_KEY_REVOKED');
  });

  test('an organization owner creates a service key with permission rules', async () => {
    const { page } = s;
    await page.goto('/admin/org/admin');
    await page.getByRole('link', { name: 'Service API keys' }).click();
    await page.getByRole('heading', { name: 'Service keys of admin' }).waitFor();
    await page.getByLabel('Key name').fill('importer');
    await page.getByRole('group', { name: 'Rule 1' }).getByLabel('create').check();
    await page.getByRole('button', { name: 'Create service key' }).click();
    const secret = await page.getByLabel('API key secret').inputValue();
    assert.match(secret, /^svc_[0-9A-Za-z]{22}$/);
    await page.getByText('allow read/create on Table/Row').waitFor();
    await s.shot('service-keys');
    // A service key authenticates but has no user identity (auth.md §8.4).
    const me = await fetch(`${server.url}/api/me`, { headers: { 'X-Api-Key': secret } });
    assert.equal(me.status, 403);
  });

  test('Get token shows a working access token with its expiry', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get token' }).click();
    const token = await page.getByLabel('Access token').inputValue();
    assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.getByText(/^Expires /).waitFor();
    await s.shot('get-token');
    const me = await fetch(`${server.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { username: string }).username, 'admin');
  });

  test('after svc_at expired the app refreshes once, transparently', async () => {
    const { page, context } = s;
    const refreshes: string[] = [];
    const onRequest = (request: { url(): string }): void => {
      if (request.url().endsWith('/api/auth/refresh')) refreshes.push(request.url());
    };
    page.on('request', onRequest);
    // What the browser does when svc_at reaches its Max-Age (JWT_ACCESS_TOKEN_TTL_SECONDS): it drops the cookie.
    await context.clearCookies({ name: 'svc_at' });
    assert.equal(await cookie('svc_at'), undefined);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    await page.getByRole('link', { name: 'admin', exact: true }).last().click();
    await page.getByRole('link', { name: 'blog' }).waitFor();
    page.off('request', onRequest);
    assert.equal(refreshes.length, 1, 'one shared refresh');
    assert.ok(await cookie('svc_at'), 'a new svc_at');
    assert.equal(await page.getByRole('heading', { name: 'Sign in to Strata' }).count(), 0);
    await s.shot('after-refresh');
  });

  test('works at 390×844 without horizontal scrolling of the page', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['/admin/org/admin/project/blog/branch/master/draft/table/posts', 'Table posts'],
      ['/admin/org/admin/project/blog', 'Project blog'],
      ['/admin/org/admin/project/blog/endpoints', 'Endpoints of blog'],
      ['/admin/no/such/screen', 'Page not found'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, `${path} fits`);
      await s.shot(`mobile-${heading.toLowerCase().replace(/\s+/g, '-')}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('logout ends the session and shows the login page', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    await page.getByText('You are signed out.').waitFor();
    assert.equal(await cookie('svc_session'), undefined);
    assert.equal(await cookie('svc_at'), undefined);
    await page.goto('/admin/org/admin/project/blog');
    await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    await s.shot('logged-out');
  });
});
