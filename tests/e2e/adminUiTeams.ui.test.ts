// A team's daily work in the Admin UI (admin-ui.md §3.2, issue 28) in Debian's Chromium against a real
// `strata serve`, with two browsers: the admin's and a new user's. An admin creates a user by keyboard only (the
// password generated and shown once), the user signs in and changes their password (every old session ends), is
// added by keyboard to a new organization as editor (the picker of existing users; the last-owner rule shown before
// any click), is refused a table as editor and allowed one as developer, builds it with the visual schema editor,
// adds rows whose foreign keys show the referenced row, selects three and deletes them in one request, and reloads a
// filtered, sorted view kept in the address (Back and Forward step through it). The admin resets the password,
// changes the system role, deactivates the user, whose session ends, and removes them from the organization after a
// confirmation. Every screen is checked at 1280×800 and 390×844 by `shot` (axe-core, overflow, unique names);
// screenshots in tests/.tmp/screenshots/teams{,-user}/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page, Request } from 'playwright-core';
import { openBrowser, type Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';

const AUTHORS = { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', default: '' } } };
const BOOKS = [
  ['b1', 'Dune', '412', 'a1'],
  ['b2', 'Emma', '320', 'a2'],
  ['b3', 'Ubik', '202', 'a1'],
  ['b4', 'Kindred', '264', 'a2'],
  ['b5', 'Solaris', '204', 'a1'],
  ['b6', 'Beloved', '324', 'a2'],
] as const;
const DRAFT = '/admin/org/guild/project/catalog/branch/master/draft';

/** Presses Tab until `target` has the focus: the way a keyboard user gets there (fails after `max` presses). */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** The GraphQL operations a page sends, by name, from the moment of the call. */
function recordOperations(page: Page): { names: string[]; stop(): void } {
  const names: string[] = [];
  const listener = (request: Request): void => {
    if (!request.url().endsWith('/graphql')) return;
    const match = /^(?:query|mutation)\s+(\w+)/.exec(String((request.postDataJSON() as { query?: string } | null)?.query ?? ''));
    if (match?.[1]) names.push(match[1]);
  };
  page.on('request', listener);
  return { names, stop: () => page.off('request', listener) };
}

describe('Admin UI: a team at work (users, account, organizations, create table, rows grid)', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let user: Session;
  let api: AdminApi;
  let url = '';
  let password = '';
  let writerId = '';
  let draft = '';

  const restLogin = async (name: string, secret: string): Promise<Response> =>
    fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: name, password: secret }),
    });
  const tokenOf = async (name: string, secret: string): Promise<string> => {
    const res = await restLogin(name, secret);
    assert.equal(res.status, 200, `login of ${name}`);
    return ((await res.json()) as { accessToken: string }).accessToken;
  };
  const asToken = async (token: string, path: string): Promise<{ status: number; code?: string }> => {
    const res = await fetch(`${url}/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { code?: string };
    return { status: res.status, ...(body.code ? { code: body.code } : {}) };
  };
  /** A session ended by the server shows as the browser's own "401" console lines for the refused calls: only those. */
  const sessionEndedOnce = (): void => {
    const seen = user.problems.splice(0);
    assert.ok(seen.length > 0 && seen.every((line) => line.includes('status of 401')), seen.join('\n'));
  };
  const signIn = async (page: Page, secret: string): Promise<void> => {
    await page.getByLabel('Username').fill('writer');
    await page.getByLabel('Password').fill(secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  before(async () => {
    suite = await openAdminUiSuite('teams', async (call) => {
      api = call;
    });
    s = suite.s;
    url = suite.server.url;
    user = await openBrowser(url, 'teams-user');
  });
  after(async () => {
    await user?.browser.close();
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'admin browser: console errors or requests to other origins');
    assert.deepEqual(user.problems.splice(0), [], 'user browser: console errors or requests to other origins');
  });

  test('keyboard only: an admin creates a user; the generated password is shown once; the list finds them', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    await s.shot('users');

    await tabTo(page, page.getByLabel('Username of the new user'));
    await page.keyboard.type('writer');
    await page.keyboard.press('Tab');
    await page.keyboard.type('writer@example.com');
    await tabTo(page, page.getByRole('radio', { name: /Generate a password/ }));
    assert.equal(await page.getByRole('radio', { name: /Generate a password/ }).isChecked(), true, 'generated by default');
    await tabTo(page, page.getByRole('button', { name: 'Create user' }));
    await page.keyboard.press('Enter');
    const secret = page.getByRole('textbox', { name: 'Initial password of writer' });
    await secret.waitFor();
    password = await secret.inputValue();
    assert.match(password, /^[A-Za-z2-9]{20}$/);
    await page.getByText('It is shown only once').waitFor();
    await page.getByRole('link', { name: 'writer', exact: true }).waitFor();
    await s.shot('user-created');
    // Done with the secret: it is gone, and never shown again.
    await tabTo(page, page.getByRole('button', { name: 'I have stored the secret' }));
    await page.keyboard.press('Enter');
    assert.equal(await page.getByRole('textbox', { name: 'Initial password of writer' }).count(), 0);

    await page.getByLabel('Search usernames').fill('wri');
    await page.getByText('1–1 of 1 users').waitFor();
    await page.getByLabel('Search usernames').fill('zz');
    await page.getByText('No username starts with “zz”.').waitFor();
    const listed = await api('GET', '/users?search=writer');
    writerId = listed.edges[0].node.id as string;
    assert.deepEqual(
      { ...listed.edges[0].node, id: 'x', createdAt: 'x' },
      {
        id: 'x',
        username: 'writer',
        email: 'writer@example.com',
        role: 'systemUser',
        isActive: true,
        organizationId: 'writer',
        createdAt: 'x',
      },
    );
  });

  test('the user signs in and changes their password: errors at their field, then every old session ends', async () => {
    const { page } = user;
    const older = await tokenOf('writer', password);
    assert.equal((await asToken(older, '/me')).status, 200);
    await page.goto('/admin/');
    await signIn(page, password);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count(), 0, 'Users is for administrators');

    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('At least 8 characters (now 5).').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('writer-pass-2');
    await page.getByLabel('Repeat the new password').fill('writer-pass-2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('This is not your current password.').waitFor();
    assert.equal(await page.getByLabel('Current password').getAttribute('aria-invalid'), 'true', 'the error belongs to its field');
    await user.shot('password-wrong');

    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    await page.getByText('Your password was changed and all your sessions have ended. Sign in with the new password.').waitFor();
    assert.deepEqual(await asToken(older, '/me'), { status: 401, code: 'TOKEN_REVOKED' }, 'the session of another client ended too');
    assert.equal((await restLogin('writer', password)).status, 401, 'the old password is gone');
    await user.shot('password-changed');
    password = 'writer-pass-2';
    await signIn(page, password);
    await page.getByRole('heading', { name: 'Account' }).waitFor();
  });

  test('keyboard only: added to a new organization as editor with the picker; the last-owner rule is said before any click', async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    await page.getByLabel('Organization id').fill('guild');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Organization guild' }).waitFor();
    await page.getByLabel('Project name').fill('catalog');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Project catalog' }).waitFor();
    draft = (await api('GET', '/organization/guild/project/catalog/branch/master')).draftRevisionId as string;
    await api('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: AUTHORS });
    await api('POST', `/revision/${draft}/table/authors/rows/bulk`, {
      rows: [
        { rowId: 'a1', data: { name: 'Ursula' } },
        { rowId: 'a2', data: { name: 'Octavia' } },
      ],
    });

    await page.goto('/admin/org/guild');
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await page.getByText('An organization always keeps an owner').waitFor();
    await page.getByText('The last owner: make someone else owner first.').waitFor();
    assert.equal(await page.getByRole('button', { name: /^Remove/ }).count(), 0, 'the last owner has no Remove button');

    const picker = page.getByRole('combobox', { name: 'User to add' });
    await tabTo(page, picker);
    await page.keyboard.type('wri');
    await page.getByRole('option', { name: 'writer' }).waitFor();
    await s.shot('member-picker');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await picker.inputValue(), 'writer');
    await page.keyboard.press('Tab');
    assert.equal(await page.getByLabel('Role of the new member').evaluate((element) => element === element.ownerDocument.activeElement), true);
    await page.keyboard.type('Editor');
    await tabTo(page, page.getByRole('button', { name: 'Add member' }));
    await page.keyboard.press('Enter');
    await page.getByText('writer was added as Editor.').waitFor();
    assert.equal(await page.getByLabel('Role of writer').inputValue(), 'editor');
    await s.shot('members');
    const members = await api('GET', '/organization/guild/users');
    assert.deepEqual(
      members.edges.map((e: { node: { user: { username: string }; role: string } }) => `${e.node.user.username}:${e.node.role}`),
      ['admin:organizationOwner', 'writer:editor'],
    );

    // The user's other screen shows the new organization at once (a fresh read when the list is shown).
    await user.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    await user.page.getByRole('row', { name: /guild.*Editor/ }).waitFor();
  });

  test('an editor may not create tables; as developer the user builds one with the visual schema editor', async () => {
    const { page } = user;
    await page.goto(DRAFT);
    await page.getByRole('heading', { name: 'Branch master' }).waitFor();
    // The visual editor from the start: the starter field, retyped and extended field by field.
    await page.getByLabel('Table id').fill('books');
    await page.getByLabel('Name of field title', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Add field to books' }).click();
    await page.getByLabel('Name of field field2', { exact: true }).fill('pages');
    await page.getByLabel('Type of field pages', { exact: true }).selectOption('number');
    await page.getByRole('button', { name: 'Add field to books' }).click();
    await page.getByLabel('Name of field field3', { exact: true }).fill('author');
    await page.getByLabel('Foreign key of field author', { exact: true }).selectOption('authors');
    await user.shot('create-table-visual');
    await page.getByRole('button', { name: 'Create table' }).click();
    await page.getByRole('alert').getByText('You do not have permission to do this.').waitFor();

    // An owner changes the role; it applies to the user's very next request.
    await s.page.getByLabel('Role of writer').selectOption('developer');
    await s.page.getByText('writer is now Developer.').waitFor();
    await page.getByRole('button', { name: 'Create table' }).click();
    await page.getByRole('heading', { name: 'Table books' }).waitFor();
    const { schema } = await api('GET', `/revision/${draft}/table/books`);
    assert.deepEqual(schema.properties, {
      title: { type: 'string', default: '' },
      pages: { type: 'number', default: 0 },
      author: { type: 'string', default: '', foreignKey: 'authors' },
    });
    assert.deepEqual(schema.required, ['title', 'pages', 'author']);

    // JSON is still there as the second mode of the same schema.
    await page.goto(DRAFT);
    await page.getByRole('group', { name: 'Schema editing mode' }).getByRole('button', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Schema (JSON Schema subset)').inputValue()) as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(json.properties), ['title']);
    await user.shot('create-table-json');
  });

  test('rows: foreign keys show the referenced row (one lookup request per page); three are selected and deleted in one request', async () => {
    const { page } = user;
    await page.goto(`${DRAFT}/table/books`);
    await page.getByRole('heading', { name: 'Add a row' }).waitFor();
    for (const [id, title, pages, author] of BOOKS) {
      await page.getByLabel('Row id').fill(id);
      await page.getByLabel('title', { exact: true }).fill(title);
      await page.getByLabel('pages', { exact: true }).fill(pages);
      await page.getByRole('combobox', { name: 'author', exact: true }).fill(author);
      await page.getByRole('button', { name: 'Add row' }).click();
      await page.getByText(`Row ${id} added.`).waitFor();
    }
    const grid = page.getByRole('region', { name: 'Rows table, scrollable' });
    await page.getByText('1–6 of 6 rows').waitFor();

    const sent = recordOperations(page);
    await page.reload();
    await grid.getByRole('row', { name: /b1 Dune 412 a1 Ursula/ }).waitFor();
    await grid.getByRole('row', { name: /b2 Emma 320 a2 Octavia/ }).waitFor();
    sent.stop();
    assert.deepEqual(
      sent.names.filter((name) => name === 'Rows' || name === 'ReferencedRows'),
      ['Rows', 'ReferencedRows'],
      'one lookup for the page',
    );
    assert.equal(await grid.getByRole('link', { name: 'a1', exact: true }).first().getAttribute('href'), `${DRAFT}/table/authors/row/a1`);
    await user.shot('rows-foreign-keys');

    for (const id of ['b2', 'b3', 'b4']) await page.getByRole('checkbox', { name: `Select row ${id}` }).check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Delete selected rows…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 3 rows of books?' });
    assert.deepEqual(await dialog.getByRole('listitem').allTextContents(), ['b4', 'b3', 'b2'], 'in the order of the grid');
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Cancel', 'the safe choice has the focus');
    await user.shot('delete-rows-confirm');
    const deleting = recordOperations(page);
    await dialog.getByRole('button', { name: 'Delete 3 rows' }).click();
    await page.getByText('Deleted 3 rows.').waitFor();
    await page.getByText('1–3 of 3 rows').waitFor();
    deleting.stop();
    assert.deepEqual(
      deleting.names.filter((name) => name.startsWith('Delete')),
      ['DeleteRows'],
      'one bulk request',
    );
    const left = await api('GET', `/revision/${draft}/table/books/rows`);
    assert.deepEqual(left.edges.map((e: { node: { id: string } }) => e.node.id).sort(), ['b1', 'b5', 'b6']);
    await user.shot('rows-deleted');
  });

  test('filter and sort live in the address: a reload keeps them; Back and Forward step through the views', async () => {
    const { page } = user;
    const grid = page.getByRole('region', { name: 'Rows table, scrollable' });
    const titles = async (): Promise<string[]> =>
      (await grid.getByRole('row').allTextContents()).slice(1).map((text) => BOOKS.find(([, title]) => text.includes(title))?.[1] ?? text);
    // The caption changes with the address; the rows of the new order arrive with the next answer (a list with a new
    // order may run while its index is still being built off the event loop), so wait up to 10 s for the expected rows.
    const titlesOnce = titles;
    const shown = async (): Promise<string[]> => {
      const deadline = Date.now() + 10_000;
      let seen = await titlesOnce();
      while (seen.join() !== 'Beloved,Dune' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await titlesOnce();
      }
      return seen;
    };
    await page.getByLabel('Field', { exact: true }).selectOption('pages');
    await page.getByLabel('Operator', { exact: true }).selectOption('gte');
    await page.getByLabel('Value', { exact: true }).fill('250');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page.getByText('1–2 of 2 rows').waitFor();
    await grid.getByRole('button', { name: 'title', exact: true }).click();
    await page.getByText('Sorted by title (ascending)').waitFor();
    const address = new URL(page.url());
    assert.deepEqual(Object.fromEntries(address.searchParams), { field: 'pages', op: 'gte', value: '250', sort: 'data:title', dir: 'asc' });
    assert.deepEqual(await shown(), ['Beloved', 'Dune']);

    await page.reload();
    await page.getByText('Sorted by title (ascending)').waitFor();
    await page.getByText('1–2 of 2 rows').waitFor();
    assert.deepEqual(await shown(), ['Beloved', 'Dune']);
    assert.equal(await page.getByLabel('Value', { exact: true }).inputValue(), '250', 'the filter form shows the filter of the address');
    await user.shot('rows-filtered-sorted');

    await page.goBack();
    await page.getByText('Sorted by title', { exact: false }).waitFor({ state: 'detached' });
    await page.getByText('1–2 of 2 rows').waitFor();
    await page.goBack();
    await page.getByText('1–3 of 3 rows').waitFor();
    assert.equal(await page.getByLabel('Value', { exact: true }).inputValue(), '');
    await page.goForward();
    await page.goForward();
    await page.getByText('Sorted by title (ascending)').waitFor();
    assert.deepEqual(await shown(), ['Beloved', 'Dune']);
  });

  test('an admin resets the password (shown once; the user signs in again) and changes the system role', async () => {
    const { page } = s;
    await page.goto('/admin/users');
    await page.getByRole('link', { name: 'writer', exact: true }).click();
    await page.getByRole('heading', { name: 'User writer' }).waitFor();
    await s.shot('user');
    await page.getByRole('button', { name: 'Reset password…' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset the password of writer?' });
    await reset.getByText(/Every sign-in session of writer ends at once/).waitFor();
    await reset.getByText('API keys keep working.').waitFor();
    await reset.getByRole('button', { name: 'Reset password' }).click();
    password = await page.getByRole('textbox', { name: 'New password of writer' }).inputValue();
    assert.match(password, /^[A-Za-z2-9]{20}$/);
    await s.shot('password-reset');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();

    // The user's next request finds the session ended.
    await user.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await user.page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    sessionEndedOnce();
    await signIn(user.page, password);
    await user.page.getByRole('heading', { name: 'API keys' }).waitFor();

    const token = await tokenOf('writer', password);
    assert.deepEqual(await asToken(token, '/users'), { status: 403, code: 'FORBIDDEN' });
    await page.getByLabel('System role of writer').selectOption('systemAdmin');
    await page.getByRole('button', { name: 'Change role…' }).click();
    await page.getByRole('dialog', { name: 'Make writer a system administrator?' }).getByRole('button', { name: 'Change role' }).click();
    await page.getByText('writer is now System administrator.').waitFor();
    assert.equal((await asToken(token, '/users')).status, 200, 'the role applies to the next request of the same token');
    await page.getByLabel('System role of writer').selectOption('systemUser');
    await page.getByRole('button', { name: 'Change role…' }).click();
    await page.getByRole('dialog', { name: 'Make writer a user?' }).getByRole('button', { name: 'Change role' }).click();
    await page.getByText('writer is now User.').waitFor();
    assert.deepEqual(await asToken(token, '/users'), { status: 403, code: 'FORBIDDEN' });
  });

  test("an admin deactivates the user after a confirmation saying what ends; the user's session ends", async () => {
    const { page } = s;
    const token = await tokenOf('writer', password);
    await page.getByRole('button', { name: 'Deactivate writer…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate writer?' });
    await dialog.getByText(/every sign-in session of theirs ends/).waitFor();
    await dialog.getByText('Their MCP sessions end.').waitFor();
    await dialog.getByText(/personal API keys stop working \(they are not revoked/).waitFor();
    await dialog.getByText(/Connected apps \(OAuth\) acting as writer lose access/).waitFor();
    await dialog.getByText(/Kept: their memberships and roles, and the service keys they created/).waitFor();
    await s.shot('deactivate-confirm');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('writer was deactivated; their sessions have ended.').waitFor();
    await page.getByText('deactivated', { exact: true }).waitFor();
    await s.shot('user-deactivated');

    assert.deepEqual(await asToken(token, '/me'), { status: 401, code: 'TOKEN_REVOKED' });
    await user.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
    await user.page.getByRole('heading', { name: 'Sign in to Strata' }).waitFor();
    await user.page.getByText('Your session has ended. Please sign in again.').waitFor();
    sessionEndedOnce();
    await signIn(user.page, password);
    await user.page.getByText('Wrong username or password.').waitFor();
    await user.shot('deactivated-sign-in');

    await page.getByRole('button', { name: 'Reactivate writer…' }).click();
    await page.getByRole('dialog', { name: 'Reactivate writer?' }).getByRole('button', { name: 'Reactivate' }).click();
    await page.getByText('writer was reactivated.').waitFor();
    assert.equal((await restLogin('writer', password)).status, 200);
    assert.equal((await api('GET', `/user/${writerId}`)).isActive, true);
  });

  test('the user logs out everywhere after a confirmation: this browser and every other session end', async () => {
    const { page } = user;
    await signIn(page, password);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    const other = await tokenOf('writer', password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Log out everywhere…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log out everywhere?' });
    await dialog.getByText('API keys keep working.').waitFor();
    await user.shot('log-out-everywhere-confirm');
    await dialog.getByRole('button', { name: 'Log out everywhere' }).click();
    await page.getByText('You are signed out everywhere.').waitFor();
    assert.deepEqual(await asToken(other, '/me'), { status: 401, code: 'TOKEN_REVOKED' });
    assert.equal(
      (await user.context.cookies()).some((cookie) => cookie.name === 'svc_session'),
      false,
      'the cookies are cleared',
    );
  });

  test('the page cursor lives in the address too: Next, a reload on that page, Previous, Back', async () => {
    const { page } = s;
    await api('POST', `/revision/${draft}/tables`, { tableId: 'shelf', schema: AUTHORS });
    const rows = Array.from({ length: 30 }, (_, i) => ({ rowId: `s${String(i).padStart(2, '0')}`, data: { name: `Shelf ${i}` } }));
    await api('POST', `/revision/${draft}/table/shelf/rows/bulk`, { rows });
    await page.goto(`${DRAFT}/table/shelf?sort=id&dir=asc`);
    await page.getByText('1–25 of 30 rows').waitFor();
    await page.getByRole('button', { name: 'Next page of rows' }).click();
    await page.getByText('26–30 of 30 rows').waitFor();
    const address = new URL(page.url()).searchParams;
    assert.equal(address.getAll('after').length, 1);
    assert.equal(address.get('sort'), 'id');
    await page.reload();
    await page.getByText('26–30 of 30 rows').waitFor();
    const grid = page.getByRole('region', { name: 'Rows table, scrollable' });
    assert.equal(await grid.getByRole('link').first().textContent(), 's25');
    await page.getByRole('button', { name: 'Previous page of rows' }).click();
    await page.getByText('1–25 of 30 rows').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Previous page of rows' }).isDisabled(), true);
    // Each page is a step of the history, like a link followed.
    await page.goBack();
    await page.getByText('26–30 of 30 rows').waitFor();
    await page.goBack();
    await page.getByText('1–25 of 30 rows').waitFor();
  });

  test('the new screens at 390×844: usable without sideways scrolling', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, heading] of [
      ['/admin/users', 'Users'],
      [`/admin/users/${writerId}`, 'User writer'],
      ['/admin/account', 'Account'],
      ['/admin/org/guild', 'Organization guild'],
      [`${DRAFT}/table/books?field=pages&op=gte&value=250&sort=data%3Atitle&dir=desc`, 'Table books'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, `${path} fits`);
      await s.shot(`mobile-${heading.toLowerCase().replace(/\s+/g, '-')}`);
    }
    await page.getByRole('checkbox', { name: 'Select row b1' }).check();
    await page.getByText('1 selected').waitFor();
    await s.shot('mobile-rows-selected');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('an owner removes a member after a confirmation saying what they lose; nothing changes until it is confirmed', async () => {
    const { page } = s;
    await page.goto('/admin/org/guild');
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await page.getByRole('button', { name: 'Remove writer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove writer from guild?' });
    await dialog.getByText(/writer loses their role in guild and every role in its projects/).waitFor();
    await s.shot('remove-member-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const usernames = async (): Promise<string[]> =>
      (await api('GET', '/organization/guild/users')).edges.map((e: { node: { user: { username: string } } }) => e.node.user.username);
    assert.deepEqual(await usernames(), ['admin', 'writer']);

    await page.getByRole('button', { name: 'Remove writer' }).click();
    await dialog.getByRole('button', { name: 'Remove member' }).click();
    await page.getByRole('cell', { name: 'writer', exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(await usernames(), ['admin']);
    await s.shot('member-removed');
  });
});
