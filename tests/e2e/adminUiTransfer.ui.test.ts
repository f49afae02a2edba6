// Import, export and bundles in the Admin UI (portability.md §6), in Debian's Chromium against a real `strata serve`:
// a table exported as JSON Lines and CSV through the browser's download, an import with a dry run first, invalid
// lines shown at their line, a refused import that writes nothing, the valid lines imported; a revision's bundle
// downloaded and imported into another branch's draft. Results are read back through the REST API; screenshots go
// to tests/.tmp/screenshots/transfer/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';
import { alice, authorsSchema, bob } from './support/systemFixtures.ts';

const P = '/organization/admin/project/shop';
const UI = '/admin/org/admin/project/shop';

describe('Admin UI: export, import, bundles', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;

  const branchOf = async (branch: string): Promise<{ draftRevisionId: string; headRevisionId: string }> => api('GET', `${P}/branch/${branch}`);
  const T = (revision: string, table: string): string => `/revision/${revision}/table/${table}`;
  const rowsOf = async (revision: string): Promise<{ id: string; data: unknown }[]> =>
    ((await api('GET', `${T(revision, 'authors')}/rows?first=100`)).edges as { node: { id: string; data: unknown } }[])
      .map((e) => ({ id: e.node.id, data: e.node.data }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
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
        .slice(-1500);
      throw new Error(`${String(text)} not shown; the screen says: ${main}`, { cause: err });
    }
  }
  async function download(page: Page, link: string): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent('download') as Promise<Download>, page.getByRole('link', { name: link }).click()]);
    return { name: file.suggestedFilename(), text: await readFile((await file.path()) as string, 'utf8') };
  }

  before(async () => {
    suite = await openAdminUiSuite('transfer', async (call) => {
      api = call;
      await api('POST', '/organization/admin/projects', { projectName: 'shop' });
      const { draftRevisionId } = await branchOf('master');
      await api('POST', `/revision/${draftRevisionId}/tables`, { tableId: 'authors', schema: authorsSchema });
      await api('POST', `${T(draftRevisionId, 'authors')}/rows/bulk`, {
        rows: [
          { rowId: 'alice', data: alice },
          { rowId: 'bob', data: bob },
        ],
      });
      const seed = await api('POST', `${P}/branch/master/revisions`, { comment: 'seed' });
      await api('POST', `/revision/${seed.id}/branches`, { branchName: 'other' });
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('Export downloads the table as JSON Lines and as CSV', async () => {
    const { page } = s;
    await page.goto(`${UI}/branch/master/head/table/authors`);
    await page.getByRole('heading', { name: 'Export' }).waitFor();
    await s.shot('table-export');
    const jsonl = await download(page, 'Export JSON Lines');
    assert.equal(jsonl.name, 'authors.jsonl');
    assert.deepEqual(
      jsonl.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
      [
        { id: 'alice', data: alice },
        { id: 'bob', data: bob },
      ],
    );
    const csv = await download(page, 'Export CSV');
    assert.equal(csv.name, 'authors.csv');
    assert.deepEqual(csv.text.trim().split(/\r?\n/), [
      'id,name,address/city,address/zip,tags',
      'alice,Alice,Paris,75001,"[""staff""]"',
      'bob,Bob,Lyon,69001,[]',
    ]);
    assert.equal(await page.getByRole('button', { name: /^Dry run/ }).count(), 0, 'HEAD is read-only: no import');
  });

  test('Import: a dry run first, invalid lines at their line, a refused import writes nothing, then the valid lines', async () => {
    const { page } = s;
    const { draftRevisionId } = await branchOf('master');
    const lines = [
      { id: 'carol', data: { name: 'Carol', address: { city: 'Nice', zip: 6000 }, tags: [] } },
      { id: 'dan', data: { name: 42, address: { city: 'Rome', zip: 100 }, tags: [] } },
      { id: 'erin', data: { name: 'Erin', address: { city: 'Oslo', zip: 150 }, tags: ['x'] } },
    ];
    const file = {
      name: 'more.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from(lines.map((line) => JSON.stringify(line)).join('\n') + '\n'),
    };
    await page.goto(`${UI}/branch/master/draft/table/authors`);
    await page.getByRole('heading', { name: 'Import rows' }).waitFor();
    await page.getByLabel('File for Import rows').setInputFiles(file);
    assert.equal(await page.getByRole('button', { name: /^Import after the dry run/ }).isDisabled(), true, 'a dry run comes first');
    await page.getByRole('button', { name: /^Dry run/ }).click();
    await see(
      page,
      'Dry run, nothing written: 3 lines read · 2 created · 0 updated · 0 unchanged · 0 removed · 1 invalid. Import is refused while lines are invalid: fix them, or skip them.',
    );
    const answerLines = page.getByRole('list', { name: 'Invalid lines in the answer of Import rows' });
    assert.match((await answerLines.textContent()) ?? '', /^Line 2 \(row dan\): .*\/name/);
    await s.shot('import-dry-run');

    await page.getByRole('button', { name: /^Import after the dry run/ }).click();
    await see(page, /The file has invalid lines\. 1 of 3 lines are invalid; nothing was imported/);
    assert.match((await page.getByRole('list', { name: 'Invalid lines of Import rows' }).textContent()) ?? '', /^Line 2: /);
    assert.deepEqual(
      (await rowsOf(draftRevisionId)).map((row) => row.id),
      ['alice', 'bob'],
      'a refused import writes nothing',
    );
    // The browser logs the refused request (400) itself: that line, and only that one, is expected.
    const logged = s.problems.splice(0);
    assert.deepEqual(logged, ['console error: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await s.shot('import-refused');

    await page.getByLabel('Skip invalid lines (import the valid ones)').check();
    assert.equal(await page.getByRole('button', { name: /^Import after the dry run/ }).isDisabled(), true, 'changed options need a new dry run');
    await page.getByRole('button', { name: /^Dry run/ }).click();
    await see(page, /^Dry run, nothing written: 3 lines read · 2 created.* Import writes the valid lines and skips the invalid ones\.$/);
    await page.getByRole('button', { name: /^Import after the dry run/ }).click();
    await see(page, 'Imported: 3 lines read · 2 created · 0 updated · 0 unchanged · 0 removed · 1 invalid.');
    assert.deepEqual(await rowsOf(draftRevisionId), [{ id: 'alice', data: alice }, { id: 'bob', data: bob }, lines[0], lines[2]]);
    await see(page, /^4 rows · updated/);
    await s.shot('import-done');

    // A CSV file, its format taken from the name, upserted.
    await page.getByLabel('Import mode').selectOption('upsert');
    await page.getByLabel('Skip invalid lines (import the valid ones)').uncheck();
    await page.getByLabel('File for Import rows').setInputFiles({
      name: 'fix.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('id,name,address/city,address/zip,tags\nbob,"Bob ""B""",Lyon,69002,"[""new""]"\n'),
    });
    await page.getByRole('button', { name: /^Dry run/ }).click();
    await see(page, 'Dry run, nothing written: 1 lines read · 0 created · 1 updated · 0 unchanged · 0 removed · 0 invalid.');
    await page.getByRole('button', { name: /^Import after the dry run/ }).click();
    await see(page, /^Imported: 1 lines read · 0 created · 1 updated/);
    assert.deepEqual((await rowsOf(draftRevisionId)).find((row) => row.id === 'bob')?.data, {
      name: 'Bob "B"',
      address: { city: 'Lyon', zip: 69002 },
      tags: ['new'],
    });
  });

  test("Download bundle on a revision, Import bundle into another branch's draft (dry run, then import)", async () => {
    const { page } = s;
    await api('POST', `${P}/branch/master/revisions`, { comment: 'imported rows' });
    const master = await branchOf('master');
    await page.goto(`${UI}/branch/master/head`);
    const bundle = await download(page, 'Download bundle');
    assert.match(bundle.name, /\.bundle\.jsonl$/);
    const [header, ...rows] = bundle.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(header?.format, 'strata-bundle');
    assert.equal(header?.sourceRevisionId, master.headRevisionId);
    assert.deepEqual(
      rows.map((row) => row.id),
      ['alice', 'bob', 'carol', 'erin'],
    );

    await page.goto(`${UI}/branch/other/draft`);
    await page.getByRole('heading', { name: 'Import bundle' }).waitFor();
    await page
      .getByLabel('File for Import bundle')
      .setInputFiles({ name: bundle.name, mimeType: 'application/x-ndjson', buffer: Buffer.from(bundle.text) });
    await page.getByRole('button', { name: /^Dry run of Import bundle/ }).click();
    await see(page, /^Dry run, nothing written: 4 lines read · 2 created · 1 updated · 1 unchanged · 0 removed · 0 invalid\./);
    const grid = page.getByRole('table', { name: 'Tables the bundle would change' });
    assert.deepEqual(
      (await grid.getByRole('row').nth(1).locator('th, td').allTextContents()).map((t) => t.trim()),
      ['authors', 'modified', '2', '1', '0', '0', '3'],
    );
    const other = await branchOf('other');
    assert.deepEqual(
      (await rowsOf(other.draftRevisionId)).map((row) => row.id),
      ['alice', 'bob'],
      'a dry run writes nothing',
    );
    await s.shot('bundle-dry-run');
    await page.getByRole('button', { name: /^Import after the dry run of Import bundle/ }).click();
    await see(page, /^Imported: 4 lines read/);
    assert.deepEqual(await rowsOf(other.draftRevisionId), await rowsOf(master.headRevisionId));
    await page.getByRole('link', { name: 'Review the imported changes' }).click();
    await page.getByRole('heading', { name: 'Review changes' }).waitFor();
    await see(page, '1 table changed · 3 row changes');
    await s.shot('bundle-review');
  });
});
