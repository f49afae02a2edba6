// The Operations screen (admin-ui.md §3.1, operations.md §5.1) in Debian's Chromium against a real `strata serve`:
// a rebuild of `rows` started from the screen runs to the switch while the rows grid keeps loading; both viewports;
// no console error or foreign request. Screenshots in tests/.tmp/screenshots/operations/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminUiSuite } from './support/adminUiSuite.ts';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views'],
  properties: { title: { type: 'string', default: '' }, views: { type: 'number', default: 0 } },
};
const ROWS = 3000;
const TABLE_PAGE = '/admin/org/admin/project/ops/branch/master/draft/table/posts';

describe('Admin UI: Operations', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;

  before(async () => {
    suite = await openAdminUiSuite('operations', async (api) => {
      await api('POST', '/organization/admin/projects', { projectName: 'ops' });
      const branch = await api('GET', '/organization/admin/project/ops/branch/master');
      const draft = branch.draftRevisionId as string;
      await api('POST', `/revision/${draft}/tables`, { tableId: 'posts', schema: SCHEMA });
      for (let start = 0; start < ROWS; start += 1000) {
        const rows = Array.from({ length: 1000 }, (_, i) => ({ rowId: `p${start + i}`, data: { title: `Post ${start + i}`, views: i } }));
        await api('POST', `/revision/${draft}/table/posts/rows/bulk`, { rows });
      }
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('a systemAdmin finds Operations in the navigation and sees every projection live', async () => {
    const { page } = s;
    // Signed in as admin by the suite.
    await page.goto('/admin/');
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    const table = page.getByRole('table', { name: 'Projections' });
    for (const name of ['api-keys', 'catalog', 'directory', 'rows', 'schemas', 'sessions']) {
      await table.getByRole('rowheader', { name, exact: true }).waitFor();
    }
    await s.shot('operations');
  });

  test('rebuilds rows from the screen to the switch while the rows grid keeps loading', async () => {
    const { page } = s;
    const row = page.locator('tr[data-projection="rows"]');
    const version = Number(await row.locator('td').first().textContent());
    // Keyboard only: focus the row's button, open the dialog, confirm.
    await page.getByRole('button', { name: 'Rebuild rows' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rebuild rows?' });
    await dialog.waitFor();
    await s.shot('operations-confirm');
    await dialog.getByRole('button', { name: 'Start rebuild' }).click();
    await page.getByText('Rebuild started: rows.').waitFor();

    const grid = await s.context.newPage();
    let loads = 0;
    const switched = row
      .locator('td')
      .first()
      .filter({ hasText: String(version + 1) });
    let shotTaken = false;
    while ((await switched.count()) === 0 || (await row.getByRole('progressbar').count()) > 0) {
      if (!shotTaken && (await row.getByRole('progressbar').count()) > 0) {
        await s.shot('operations-rebuilding');
        shotTaken = true;
      }
      await grid.goto(TABLE_PAGE);
      // The grid answers with every row while the rebuild runs (a failed read would show an error instead).
      await grid.getByText(`of ${ROWS} rows`).waitFor();
      assert.equal(await grid.getByRole('alert').count(), 0);
      loads += 1;
      assert.ok(loads < 200, 'the rebuild reaches the switch');
    }
    assert.ok(loads >= 1);
    await grid.goto(TABLE_PAGE);
    await grid.getByText(`of ${ROWS} rows`).waitFor();
    await grid.close();
    assert.equal(await row.getByRole('button', { name: 'Rebuild rows' }).isEnabled(), true);
    await s.shot('operations-switched');
  });

  test('works at 390×844 without horizontal scrolling of the page', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/operations');
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await page.getByRole('rowheader', { name: 'rows', exact: true }).waitFor();
    assert.equal(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), true, 'operations fits');
    await s.shot('mobile-operations');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
