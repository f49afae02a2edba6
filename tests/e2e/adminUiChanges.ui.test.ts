// Review changes, compare and row history in the Admin UI (admin-ui.md §3.1, changes.md §1-§2), in Debian's
// Chromium against a real `strata serve`: what the screens show is asserted, screenshots go to
// tests/.tmp/screenshots/changes/, and no test sees a console error or a request to another origin.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';
import { alice, authorsSchema, bob, carol } from './support/systemFixtures.ts';

const EVENTS = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };
const P = '/organization/admin/project/shop';
const UI = '/admin/org/admin/project/shop';

describe('Admin UI: review changes, compare, row history', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  const revs = { c1: '', c2: '', c3: '' };

  const draftOf = async (branch: string): Promise<string> => (await api('GET', `${P}/branch/${branch}`)).draftRevisionId as string;
  const T = (revision: string, table: string): string => `/revision/${revision}/table/${table}`;
  const commit = async (branch: string, comment: string): Promise<string> =>
    (await api('POST', `${P}/branch/${branch}/revisions`, { comment })).id as string;
  const fits = (page: Page): Promise<unknown> => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
  /** The card of one changed row (or version), found by its heading. */
  const card = (page: Page, heading: RegExp): Locator => page.getByRole('article').filter({ has: page.getByRole('heading', { name: heading }) });
  /** The before and after cells of one field in a card's field-level table. */
  async function fieldRow(scope: Locator, field: string): Promise<[string, string]> {
    const row = scope.getByRole('row').filter({ has: scope.page().getByRole('rowheader', { name: field, exact: true }) });
    const cells = row.getByRole('cell');
    return [((await cells.nth(0).textContent()) ?? '').trim(), ((await cells.nth(1).textContent()) ?? '').trim()];
  }

  before(async () => {
    suite = await openAdminUiSuite('changes', async (call) => {
      api = call;
      await api('POST', '/organization/admin/projects', { projectName: 'shop' });
      const draft = await draftOf('master');
      await api('POST', `/revision/${draft}/tables`, { tableId: 'authors', schema: authorsSchema });
      await api('POST', `${T(draft, 'authors')}/rows/bulk`, {
        rows: [
          { rowId: 'alice', data: alice },
          { rowId: 'bob', data: bob },
          { rowId: 'carol', data: carol },
        ],
      });
      revs.c1 = await commit('master', 'seed');
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('Review changes on a draft: tables with counts, field-level before/after, paging, commit from there', async () => {
    const { page } = s;
    const draft = await draftOf('master');
    await api('PUT', `${T(draft, 'authors')}/row/alice`, { data: { ...alice, address: { city: 'Lille', zip: 59000 }, tags: ['staff', 'new'] } });
    await api('DELETE', `${T(draft, 'authors')}/row/bob`);
    await api('POST', `${T(draft, 'authors')}/row/carol/rename`, { nextRowId: 'caroline' });
    await api('POST', `${T(draft, 'authors')}/rows`, { rowId: 'erin', data: { name: 'Erin', address: { city: 'Rome', zip: 100 }, tags: [] } });
    await api('POST', `/revision/${draft}/tables`, { tableId: 'events', schema: EVENTS });
    await api('POST', `${T(draft, 'events')}/rows/bulk`, {
      rows: Array.from({ length: 25 }, (_, i) => ({ rowId: `e${String(i).padStart(2, '0')}`, data: { n: i } })),
    });

    await page.goto(`${UI}/branch/master/draft`);
    await page.getByRole('link', { name: 'Review changes' }).click();
    await page.getByRole('heading', { name: 'Review changes' }).waitFor();
    await page.getByText('The draft of master compared with HEAD #1.').waitFor();
    await page.getByText('2 tables changed · 29 row changes').waitFor();
    const grid = page.getByRole('table', { name: 'Changed tables with their row change counts' });
    const cellsOf = async (table: string): Promise<string[]> =>
      (
        await grid
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name: `Row changes of ${table}`, exact: true }) })
          .locator('td')
          .allTextContents()
      ).map((t) => t.trim());
    assert.deepEqual(await cellsOf('authors'), ['modified', '1', '1', '1', '1', '4']);
    assert.deepEqual(await cellsOf('events'), ['added', '25', '0', '0', '0', '25']);
    await s.shot('review-tables');

    await page.getByRole('link', { name: 'Row changes of authors' }).click();
    await page.getByRole('heading', { name: 'Row changes of authors' }).waitFor();
    assert.match(page.url(), /\/changes\?table=authors$/);
    const updated = card(page, /^alice\s*updated/);
    assert.deepEqual(await fieldRow(updated, 'address › city'), ['"Paris"', '"Lille"']);
    assert.deepEqual(await fieldRow(updated, 'address › zip'), ['75001', '59000']);
    assert.deepEqual(await fieldRow(updated, 'tags › 1'), ['—not set', '"new"']);
    assert.equal(await updated.getByRole('rowheader').count(), 3, 'only the changed leaves');
    await updated.getByText('Whole row before and after').click();
    assert.match((await updated.locator('.before-after').textContent()) ?? '', /"city": "Paris"[\s\S]*"city": "Lille"/);
    await card(page, /^caroline\s*renamed\s*from carol/)
      .getByText('Only the id changed: the data is the same.')
      .waitFor();
    assert.match((await card(page, /^bob\s*removed/).textContent()) ?? '', /Removed data[\s\S]*"name": "Bob"/);
    assert.match((await card(page, /^erin\s*added/).textContent()) ?? '', /New data[\s\S]*"city": "Rome"/);
    assert.equal(
      await card(page, /^bob/)
        .getByRole('link', { name: /Open row/ })
        .count(),
      0,
      'a removed row has no link',
    );
    await s.shot('review-rows');

    // A removed row's history is readable from the draft by its last id.
    await card(page, /^bob/).getByRole('link', { name: 'History of bob' }).click();
    await page.getByRole('heading', { name: 'History of row bob' }).waitFor();
    await page.getByText('1–2 of 2 versions').waitFor();
    const bobVersions = (await page.getByRole('article').getByRole('heading').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(bobVersions, ['Deleted Draft of master', 'Created Revision #1 of master']);
    await page.getByText('The row was deleted (last id bob).').waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Row changes of authors' }).waitFor();

    await page.getByLabel('Show', { exact: true }).selectOption('UPDATED');
    await page.getByText('1–1 of 1 row changes').waitFor();
    assert.equal(await page.getByRole('article').count(), 1);

    // Keyboard only: from the table of changed tables to the rows of "events", then the next page.
    await page.getByRole('link', { name: 'Row changes of events' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Row changes of events' }).waitFor();
    await page.getByText('1–20 of 25 row changes').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('21–25 of 25 row changes').waitFor();
    await card(page, /^e24\s*added/).waitFor();
    await s.shot('review-paging');

    await page.getByLabel('Commit comment').fill('authors and events');
    await page.getByRole('button', { name: 'Commit' }).click();
    await page.getByText('Committed revision #2.').waitFor();
    await page.getByText('The draft has no changes since HEAD.').waitFor();
    await page.getByText('No changes: both revisions hold the same tables and rows.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Commit' }).isDisabled(), true);
    await s.shot('review-committed');
    revs.c2 = (await api('GET', `${P}/branch/master`)).headRevisionId;

    await page.getByRole('link', { name: 'Back to master' }).click();
    await page.getByRole('navigation', { name: 'Revision' }).getByRole('link', { name: 'Draft', exact: true }).waitFor();
    await page
      .locator('ol.history > li')
      .nth(1)
      .filter({ hasText: /#2.*HEAD.*authors and events/ })
      .waitFor();
    // A committed revision's changes are against its parent, opened from the history.
    await page.getByRole('link', { name: 'Changes in #2' }).click();
    await page.getByRole('heading', { name: 'Revision changes' }).waitFor();
    await page.getByText('Revision #2 of master compared with its parent revision.').waitFor();
    await page.getByText('2 tables changed · 29 row changes').waitFor();
  });

  test('compares two revisions across branches', async () => {
    const { page } = s;
    await api('POST', `/revision/${revs.c2}/branches`, { branchName: 'feature' });
    const draft = await draftOf('feature');
    await api('PATCH', `${T(draft, 'authors')}/row/alice`, { patches: [{ op: 'replace', path: '/address/city', value: 'Berlin' }] });
    await api('POST', `${T(draft, 'authors')}/row/erin/rename`, { nextRowId: 'erin2' });
    revs.c3 = await commit('feature', 'feature work');

    await page.goto(UI);
    await page.getByRole('link', { name: 'Compare revisions' }).click();
    await page.getByRole('heading', { name: 'Compare revisions' }).waitFor();
    const basePicker = page.getByRole('group', { name: 'Base (before)' });
    const targetPicker = page.getByRole('group', { name: 'Compared (after)' });
    await basePicker.getByLabel('Revision').selectOption(revs.c1);
    assert.match((await basePicker.getByLabel('Revision').locator('option:checked').textContent()) ?? '', /^#1 · seed · /);
    // Keyboard only: the next branch (root first, then by name) with an arrow key, then Tab to Compare and Enter.
    await targetPicker.getByLabel('Branch').focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await targetPicker.getByLabel('Branch').inputValue(), 'feature');
    await targetPicker.getByLabel('Revision').locator(`option[value="${revs.c3}"]`).waitFor({ state: 'attached' });
    assert.equal(await targetPicker.getByLabel('Revision').inputValue(), revs.c3, 'a picked branch starts at its HEAD');
    // Compare is disabled while a picker still loads its revisions; Tab would skip it then.
    await page.locator('button.primary:not([disabled])', { hasText: 'Compare' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Compare');
    await page.keyboard.press('Enter');
    await page.getByText('2 tables changed · 29 row changes').waitFor();
    const url = new URL(page.url());
    assert.deepEqual(
      [url.searchParams.get('baseBranch'), url.searchParams.get('base'), url.searchParams.get('branch'), url.searchParams.get('target')],
      ['master', revs.c1, 'feature', revs.c3],
    );
    await s.shot('compare-tables');

    await page.getByRole('link', { name: 'Row changes of authors' }).click();
    const aliceCard = card(page, /^alice\s*updated/);
    assert.deepEqual(await fieldRow(aliceCard, 'address › city'), ['"Paris"', '"Berlin"']);
    await card(page, /^erin2\s*added/).waitFor();
    assert.equal(
      await aliceCard.getByRole('link', { name: 'Open row alice' }).getAttribute('href'),
      `${UI}/branch/feature/${revs.c3}/table/authors/row/alice`,
    );
    await s.shot('compare-rows');

    // Swapped, the same difference reads the other way round.
    await page.getByRole('button', { name: 'Swap base and compared' }).click();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.waitForURL((next) => next.searchParams.get('base') === revs.c3 && next.searchParams.get('target') === revs.c1);
    await page.getByRole('link', { name: 'Row changes of authors' }).click();
    assert.deepEqual(await fieldRow(card(page, /^alice\s*updated/), 'address › city'), ['"Berlin"', '"Paris"']);
    await card(page, /^erin2\s*removed/).waitFor();
    await card(page, /^bob\s*added/).waitFor();
  });

  test("a row's history after several edits and a rename, with the diff to the previous version", async () => {
    const { page } = s;
    const draft = await draftOf('feature');
    await api('POST', `${T(draft, 'authors')}/row/alice/rename`, { nextRowId: 'alicia' });
    await api('PATCH', `${T(draft, 'authors')}/row/alicia`, { patches: [{ op: 'replace', path: '/name', value: 'Alicia' }] });

    await page.goto(`${UI}/branch/feature/draft/table/authors/row/alicia`);
    await page.getByRole('heading', { name: 'Row alicia' }).waitFor();
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History of row alicia' }).waitFor();
    await page.getByText('1–4 of 4 versions').waitFor();
    const headings = (await page.getByRole('article').getByRole('heading').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(headings, [
      'Renamed Draft of feature',
      'Updated Revision #1 of feature',
      'Updated Revision #2 of master',
      'Created Revision #1 of master',
    ]);

    const latest = card(page, /Draft of feature/);
    await latest.getByText('Renamed from alice to alicia.').waitFor();
    assert.deepEqual(await fieldRow(latest, 'name'), ['"Alice"', '"Alicia"']);
    assert.equal(await latest.getByRole('rowheader').count(), 1);
    assert.match((await latest.textContent()) ?? '', /not committed yet · by admin/);
    assert.deepEqual(await fieldRow(card(page, /#1 of feature/), 'address › city'), ['"Lille"', '"Berlin"']);
    const second = card(page, /#2 of master/);
    assert.deepEqual(await fieldRow(second, 'tags › 1'), ['—not set', '"new"']);
    assert.match((await second.textContent()) ?? '', /by admin · “authors and events”/);
    const first = card(page, /#1 of master/);
    assert.match((await first.textContent()) ?? '', /“seed”[\s\S]*Created with[\s\S]*"city": "Paris"/);
    assert.equal(
      await first.getByRole('link', { name: 'authors/alice at this revision' }).getAttribute('href'),
      `${UI}/branch/master/${revs.c1}/table/authors/row/alice`,
    );
    await s.shot('row-history');
    await first.getByRole('link', { name: 'authors/alice at this revision' }).click();
    await page.getByRole('heading', { name: 'Row alice' }).waitFor();
    await page.getByText('Revision #1', { exact: true }).waitFor();
  });

  test('the three screens at 390×844: readable without horizontal scrolling of the page', async () => {
    const { page } = s;
    const draft = await draftOf('feature');
    await api('PUT', `${T(draft, 'authors')}/row/alicia`, {
      data: { name: 'Alicia', address: { city: 'A very long city name that wraps on a phone', zip: 1 }, tags: ['x'] },
    });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${UI}/branch/feature/draft/changes?table=authors`);
      await page.getByRole('heading', { name: 'Review changes' }).waitFor();
      assert.deepEqual(await fieldRow(card(page, /^alicia\s*renamed/), 'address › city'), [
        '"Berlin"',
        '"A very long city name that wraps on a phone"',
      ]);
      assert.equal(await fits(page), true, 'review fits');
      await s.shot('mobile-review');

      await page.goto(`${UI}/compare?baseBranch=master&base=${revs.c1}&branch=feature&target=${revs.c3}&table=authors`);
      await card(page, /^alice\s*updated/).waitFor();
      assert.equal(await fits(page), true, 'compare fits');
      await s.shot('mobile-compare');

      await page.goto(`${UI}/branch/feature/draft/table/authors/row/alicia/history`);
      await page.getByText('1–4 of 4 versions').waitFor();
      assert.deepEqual(await fieldRow(card(page, /Draft of feature/), 'address › city'), [
        '"Berlin"',
        '"A very long city name that wraps on a phone"',
      ]);
      assert.equal(await fits(page), true, 'history fits');
      await s.shot('mobile-history');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
