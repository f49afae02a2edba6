// Merge and restore in the Admin UI (merge.md §7), in Debian's Chromium against a real `strata serve`: conflicts
// side by side resolved with the keyboard only at 1280 and at 390 px, the merge applied and reviewed, merge commits
// marked in the history, a revision restored, a row version restored. What the screens show is asserted, the
// resulting data is read back through the REST API, and screenshots go to tests/.tmp/screenshots/merge/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';
import { alice, authorsSchema, bob, carol } from './support/systemFixtures.ts';

const P = '/organization/admin/project/shop';
const UI = '/admin/org/admin/project/shop';

describe('Admin UI: merge, restore, row version restore', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  const revs = { c1: '' };

  const draftOf = async (branch: string): Promise<string> => (await api('GET', `${P}/branch/${branch}`)).draftRevisionId as string;
  const T = (revision: string, table: string): string => `/revision/${revision}/table/${table}`;
  const commit = async (branch: string, comment: string): Promise<string> =>
    (await api('POST', `${P}/branch/${branch}/revisions`, { comment })).id as string;
  const rowData = async (branch: string, rowId: string): Promise<unknown> =>
    (await api('GET', `${T(await draftOf(branch), 'authors')}/row/${rowId}`)).data;
  const set = async (branch: string, rowId: string, data: unknown): Promise<void> => {
    await api('PUT', `${T(await draftOf(branch), 'authors')}/row/${rowId}`, { data });
  };
  /** The card of one conflict, found by its heading (the conflict's location). */
  const conflict = (page: Page, location: string): Locator =>
    page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`^${location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(open|resolved)$`) }) });
  /** Focuses a control and presses keys: the keyboard is the only input on the conflicts. */
  async function keys(target: Locator, ...pressed: string[]): Promise<void> {
    await target.focus();
    for (const key of pressed) await target.page().keyboard.press(key);
  }
  /** Waits for a text; on a timeout the failure shows what the screen said instead. */
  async function see(page: Page, text: string | RegExp): Promise<void> {
    try {
      await page.getByText(text).first().waitFor({ timeout: 10_000 });
    } catch (err) {
      const main = (
        (await page
          .locator('main')
          .textContent()
          .catch(() => '')) ?? ''
      )
        .replace(/\s+/g, ' ')
        .slice(0, 1500);
      throw new Error(`${String(text)} not shown; the screen says: ${main}`, { cause: err });
    }
  }
  const checked = async (card: Locator): Promise<string> => (await card.locator('input[type=radio]:checked').getAttribute('value')) ?? '';

  before(async () => {
    suite = await openAdminUiSuite('merge', async (call) => {
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
      await api('POST', `/revision/${revs.c1}/branches`, { branchName: 'feature' });
      // Theirs (feature): alice moves to Berlin, bob is renamed Robert, carol is removed, dave is added.
      await set('feature', 'alice', { ...alice, address: { city: 'Berlin', zip: 10115 } });
      await set('feature', 'bob', { ...bob, name: 'Robert' });
      await api('DELETE', `${T(await draftOf('feature'), 'authors')}/row/carol`);
      await api('POST', `${T(await draftOf('feature'), 'authors')}/rows`, {
        rowId: 'dave',
        data: { name: 'Dave', address: { city: 'Oslo', zip: 150 }, tags: [] },
      });
      await commit('feature', 'feature work');
      // Ours (master): alice moves to Lyon, bob becomes Bobby, carol gets a new tag.
      await set('master', 'alice', { ...alice, address: { city: 'Lyon', zip: 75001 } });
      await set('master', 'bob', { ...bob, name: 'Bobby' });
      await set('master', 'carol', { ...carol, tags: ['guest', 'y'] });
      await commit('master', 'master work');
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('merge at 1280 px: conflicts side by side, each resolved by keyboard (keep, take, edit with the row form), then Review changes', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${UI}/branch/master/draft`);
    await keys(page.getByRole('link', { name: 'Merge into this branch…' }), 'Enter');
    await page.getByRole('heading', { name: 'Merge into master' }).waitFor();
    assert.equal(await page.getByLabel('Source branch').inputValue(), 'feature');
    await page.locator('button.primary:not([disabled])', { hasText: 'Preview merge' }).waitFor();
    assert.match((await page.getByLabel('Source revision').locator('option:checked').textContent()) ?? '', /^#1 \(HEAD\) · feature work/);
    await keys(page.getByRole('button', { name: 'Preview merge' }), 'Enter');
    await see(page, '3 of 3 conflicts open.');

    const headings = (await page.locator('.conflict h3').allTextContents()).map((t) => t.trim());
    assert.deepEqual(
      headings,
      ['authors / alice › address › cityopen', 'authors / bob › nameopen', 'authors / carolopen'],
      'ordered by table, row, path',
    );
    const aliceCard = conflict(page, 'authors / alice › address › city');
    const sides = (await aliceCard.locator('.conflict-sides .document').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(sides, ['Base"Paris"', 'Ours (this draft)"Lyon"', 'Theirs (source)"Berlin"']);
    const carolCard = conflict(page, 'authors / carol');
    await carolCard.getByText('Row removed on one side, changed on the other').waitFor();
    assert.match((await carolCard.locator('.conflict-sides').textContent()) ?? '', /Ours \(this draft\)[\s\S]*"y"[\s\S]*Theirs \(source\)—nothing/);
    assert.deepEqual(await carolCard.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as { value: string }).value)), [
      'OURS',
      'THEIRS',
      'VALUE',
      'REMOVE',
    ]);
    assert.equal(await aliceCard.getByRole('radio', { name: /Remove row/ }).count(), 0, 'a field conflict cannot remove the row');
    await page
      .getByRole('cell', { name: 'authors', exact: true })
      .or(page.getByRole('rowheader', { name: 'authors', exact: true }))
      .first()
      .waitFor();
    await s.shot('merge-conflicts-open');

    // alice: Space on the first choice keeps ours.
    await keys(aliceCard.getByRole('radio', { name: /^Keep ours/ }), 'Space');
    await aliceCard.getByText('resolved').waitFor();
    await see(page, '2 of 3 conflicts open.');
    // bob: an arrow key moves the choice from Keep ours to Take theirs.
    const bobCard = conflict(page, 'authors / bob › name');
    await keys(bobCard.getByRole('radio', { name: /^Keep ours/ }), 'Space');
    await see(page, '1 of 3 conflicts open.');
    await keys(bobCard.getByRole('radio', { name: /^Keep ours/ }), 'ArrowRight');
    assert.equal(await checked(bobCard), 'THEIRS');
    await see(page, '1 of 3 conflicts open.');
    // carol: Edit value opens the row form on theirs-or-ours data; a field is changed and the value used.
    await keys(carolCard.getByRole('radio', { name: /^Keep ours/ }), 'ArrowRight', 'ArrowRight');
    assert.equal(await checked(carolCard), 'VALUE');
    const name = carolCard.getByLabel('name', { exact: true });
    await name.waitFor();
    assert.equal(await name.inputValue(), 'Carol');
    await keys(name, 'ControlOrMeta+a');
    await page.keyboard.type('Caroline');
    await s.shot('merge-edit-value');
    await keys(carolCard.getByRole('button', { name: /^Use this value/ }), 'Enter');
    await see(page, 'All 3 conflicts are resolved.');
    await carolCard.getByText('This value is used.').waitFor();
    const grid = page.getByRole('table', { name: 'Tables the merge changes' });
    assert.deepEqual(
      (await grid.getByRole('row').nth(1).locator('th, td').allTextContents()).map((t) => t.trim()),
      ['authors', 'modified', '1', '3', '0', '0', '4'],
    );
    await s.shot('merge-conflicts-resolved');

    await keys(page.getByRole('button', { name: 'Merge', exact: true }), 'Enter');
    await page.getByRole('heading', { name: 'Review changes' }).waitFor();
    await see(page, '1 table changed · 4 row changes');
    // alice keeps our city and takes their zip (changed on their side only).
    assert.deepEqual(await rowData('master', 'alice'), { ...alice, address: { city: 'Lyon', zip: 10115 } });
    assert.deepEqual(await rowData('master', 'bob'), { ...bob, name: 'Robert' });
    assert.deepEqual(await rowData('master', 'carol'), { ...carol, name: 'Caroline', tags: ['guest', 'y'] });
    assert.deepEqual(await rowData('master', 'dave'), { name: 'Dave', address: { city: 'Oslo', zip: 150 }, tags: [] });
    await s.shot('merge-review');

    await page.getByLabel('Commit comment').fill('merge feature');
    await page.getByRole('button', { name: 'Commit' }).click();
    await see(page, 'Committed revision #3.');
    await page.getByRole('link', { name: 'Back to master' }).click();
    const mergeItem = page.locator('ol.history > li').filter({ hasText: 'merge feature' });
    await mergeItem.getByText('merged feature #1').waitFor();
    assert.match((await mergeItem.textContent()) ?? '', /#3.*HEAD.*merge.*merge feature/);
    await s.shot('history-merge-commit');
  });

  test('merge at 390 px: Take all theirs, one conflict kept as ours, all by keyboard', async () => {
    const { page } = s;
    await set('feature', 'alice', { ...alice, name: 'Alice F', address: { city: 'Munich', zip: 80331 } });
    await commit('feature', 'feature again');
    await set('master', 'alice', { ...alice, name: 'Alice M', address: { city: 'Lille', zip: 59000 } });
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${UI}/branch/master/draft/merge`);
      await page.locator('button.primary:not([disabled])', { hasText: 'Preview merge' }).waitFor();
      await keys(page.getByRole('button', { name: 'Preview merge' }), 'Enter');
      await see(page, '3 of 3 conflicts open.');
      assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'no sideways scroll at 390 px');
      await keys(page.getByRole('button', { name: 'Take all theirs' }), 'Enter');
      await see(page, 'All 3 conflicts are resolved.');
      assert.equal(await page.getByRole('button', { name: 'Take all theirs' }).getAttribute('aria-pressed'), 'true');
      const nameCard = conflict(page, 'authors / alice › name');
      assert.equal(await checked(nameCard), 'THEIRS');
      await nameCard.getByText('by Take all theirs').waitFor();
      // Within the group the arrow keys move the choice: ArrowLeft from Take theirs is Keep ours.
      await keys(nameCard.getByRole('radio', { name: /^Take theirs/ }), 'ArrowLeft');
      assert.equal(await checked(nameCard), 'OURS');
      await see(page, 'All 3 conflicts are resolved.');
      await s.shot('merge-390-strategy');
      await keys(page.getByRole('button', { name: 'Merge', exact: true }), 'Enter');
      await page.getByRole('heading', { name: 'Review changes' }).waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // The name kept ours, every other conflicting leaf took theirs.
    assert.deepEqual(await rowData('master', 'alice'), { ...alice, name: 'Alice M', address: { city: 'Munich', zip: 80331 } });
    const draft = await api('GET', `/revision/${await draftOf('master')}`);
    assert.equal(draft.pendingMergeRevisionIds.length, 1);
    await page.goto(`${UI}/branch/master/draft`);
    await page.locator('ol.history > li').first().getByText('merging feature #2').waitFor();
  });

  test("row history: Restore this version writes that version's data into the draft", async () => {
    const { page } = s;
    await api('POST', `${P}/branch/master/revert`);
    await page.goto(`${UI}/branch/master/draft/table/authors/row/bob/history`);
    await page.getByRole('heading', { name: 'History of row bob' }).waitFor();
    const versions = page.getByRole('article');
    await see(page, /of 3 versions/);
    assert.equal(
      await versions
        .first()
        .getByRole('button', { name: /^Restore this version/ })
        .count(),
      0,
      'the newest version is the row as it is',
    );
    const first = versions.filter({ has: page.getByRole('heading', { name: /Created Revision #1 of master/ }) });
    await keys(first.getByRole('button', { name: /^Restore this version/ }), 'Enter');
    await first.getByText('Row bob in the draft now holds the data of Revision #1 of master.').waitFor();
    assert.deepEqual(await rowData('master', 'bob'), bob);
    await see(page, /of 4 versions/);
    await s.shot('row-version-restored');
  });

  test('Restore this revision… shows the diff it makes, then makes the draft equal to it', async () => {
    const { page } = s;
    await api('POST', `${P}/branch/master/revert`);
    await page.goto(`${UI}/branch/master/draft`);
    await keys(page.getByRole('link', { name: 'Restore #1…' }), 'Enter');
    await page.getByRole('heading', { name: 'Restore revision #1' }).waitFor();
    await see(page, '1 table changed · 4 row changes');
    await page.getByRole('link', { name: 'Row changes of authors' }).click();
    await page
      .getByRole('article')
      .filter({ has: page.getByRole('heading', { name: /^dave\s*removed/ }) })
      .waitFor();
    await s.shot('restore-preview');
    await page.getByRole('button', { name: 'Restore this revision' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('heading', { name: 'Review changes' }).waitFor();
    await see(page, '1 table changed · 4 row changes');
    for (const [rowId, data] of [
      ['alice', alice],
      ['bob', bob],
      ['carol', carol],
    ] as const)
      assert.deepEqual(await rowData('master', rowId), data);
    const rows = await api('GET', `${T(await draftOf('master'), 'authors')}/rows?first=10`);
    assert.deepEqual(
      rows.edges.map((e: { node: { id: string } }) => e.node.id),
      ['alice', 'bob', 'carol'],
    );
    await s.shot('restore-review');
  });
});
