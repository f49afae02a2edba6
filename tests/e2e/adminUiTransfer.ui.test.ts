// Table export and import in the Admin UI (portability.md §6, issue 27) in Debian's Chromium against a real
// `strata serve`: a CSV export downloads the table; an import file with an invalid line in the middle is dry-run
// first (counts, the invalid line at its line number, nothing written), refused whole by Import, then a corrected
// file is dry-run and imported, and the rows grid shows the new rows. Screens checked by `shot` (axe-core,
// overflow, unique names); screenshots in tests/.tmp/screenshots/transfer/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';

const ITEMS = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'qty'],
  properties: { name: { type: 'string', default: '' }, qty: { type: 'number', default: 0 } },
};
const TABLE = '/admin/org/admin/project/shop/branch/master/draft/table/items';

describe('Admin UI: table export and import (portability.md §6)', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  let draft = '';

  before(async () => {
    suite = await openAdminUiSuite('transfer', async (call) => {
      await call('POST', '/organization/admin/projects', { projectName: 'shop' });
      draft = (await call('GET', '/organization/admin/project/shop/branch/master')).draftRevisionId;
      await call('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: ITEMS });
      await call('POST', `/revision/${draft}/table/items/rows/bulk`, { rows: [{ rowId: 'i1', data: { name: 'Bolt, "M6"', qty: 10 } }, { rowId: 'i2', data: { name: 'Nut', qty: 1e21 } }] });
    });
    ({ s, api } = suite);
  });
  after(() => suite?.close());

  const rowIds = async (): Promise<string[]> => (await api('GET', `/revision/${draft}/table/items/rows?first=100`)).edges.map((e: { node: { id: string } }) => e.node.id).sort();

  test('Export downloads the table as CSV', async () => {
    const { page } = s;
    await page.goto(TABLE);
    await page.getByRole('heading', { name: 'Export and import' }).waitFor();
    await s.shot('table-transfer');
    await page.getByLabel('Export format').selectOption('csv');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export' }).click()]);
    assert.equal(download.suggestedFilename(), 'items.csv');
    const text = await readFile((await download.path()) as string, 'utf8');
    assert.equal(text, 'id,name,qty\r\ni1,"Bolt, ""M6""",10\r\ni2,Nut,1e+21\r\n');
  });

  test('Dry run shows the counts and the invalid line; Import refuses the file whole; a corrected file imports', async () => {
    const { page } = s;
    await page.goto(TABLE);
    const form = page.getByRole('form', { name: 'Import rows' });
    const broken = 'id,name,qty\r\ni3,Washer,5\r\ni4,Spring,lots\r\ni5,Pin,7\r\n';
    await form.getByLabel('File (JSON Lines or CSV)').setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(broken) });
    assert.equal(await form.getByLabel('Import format').inputValue(), 'csv');
    await form.getByLabel('Mode').selectOption('upsert');
    assert.equal(await form.getByRole('button', { name: 'Import' }).isDisabled(), true, 'Import waits for a dry run');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await form.getByText('Dry run: 3 lines, 2 created, 0 updated, 0 unchanged, 0 removed, 1 invalid (nothing was written)').waitFor();
    const invalid = form.getByRole('table', { name: 'Invalid lines' });
    assert.deepEqual(await invalid.locator('tbody tr').first().locator('td').allInnerTexts(), ['3', 'i4', 'INVALID_DATA: "qty" must be a number, got "lots"']);
    await s.shot('import-dry-run');
    assert.deepEqual(await rowIds(), ['i1', 'i2']);

    await form.getByRole('button', { name: 'Import' }).click();
    await form.getByRole('alert').getByText('Some lines of the file are invalid; nothing was imported.').waitFor();
    assert.equal(await invalid.locator('tbody tr').first().locator('td').first().innerText(), '3');
    await s.shot('import-refused');
    assert.deepEqual(await rowIds(), ['i1', 'i2']);

    const fixed = 'id,name,qty\r\ni3,Washer,5\r\ni4,Spring,3\r\ni5,Pin,7\r\n';
    await form.getByLabel('File (JSON Lines or CSV)').setInputFiles({ name: 'items-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(fixed) });
    await form.getByLabel('Mode').selectOption('upsert');
    await form.getByRole('button', { name: 'Dry run' }).click();
    await form.getByText('Dry run: 3 lines, 3 created, 0 updated, 0 unchanged, 0 removed, 0 invalid (nothing was written)').waitFor();
    await form.getByRole('button', { name: 'Import' }).click();
    await form.getByText('Imported: 3 lines, 3 created, 0 updated, 0 unchanged, 0 removed, 0 invalid').waitFor();
    await page.getByText('5 rows').first().waitFor();
    await s.shot('imported');
    assert.deepEqual(await rowIds(), ['i1', 'i2', 'i3', 'i4', 'i5']);
    // The refused import's 400 is the only failed request the browser saw.
    assert.deepEqual(s.problems.filter((problem) => !problem.includes('status of 400')), []);
  });

  test('Download bundle on a revision; Import bundle into the draft of another project, dry run first', async () => {
    const { page } = s;
    await page.goto('/admin/org/admin/project/shop/branch/master/draft');
    await page.getByRole('heading', { name: 'Bundle', exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download bundle' }).click()]);
    const bundle = await readFile((await download.path()) as string);
    assert.equal(bundle.toString('utf8').trimEnd().split('\n').length, 1 + 5);

    await api('POST', '/organization/admin/projects', { projectName: 'depot' });
    await page.goto('/admin/org/admin/project/depot/branch/master/draft');
    const form = page.getByRole('form', { name: 'Import bundle' });
    await form.getByLabel('Bundle file').setInputFiles({ name: 'shop.bundle.jsonl', mimeType: 'application/x-ndjson', buffer: bundle });
    await form.getByRole('button', { name: 'Dry run' }).click();
    await form.getByText('Dry run: 5 rows read; 1 tables and 5 rows would change (nothing was written)').waitFor();
    assert.deepEqual(await form.getByRole('table', { name: 'Table changes' }).locator('tbody tr').first().locator('td').allInnerTexts(), ['items', 'ADDED', 'changed', '5', '0', '0']);
    await s.shot('bundle-dry-run');
    await form.getByRole('button', { name: 'Import bundle' }).click();
    await form.getByText('Imported: 5 rows read; 1 tables and 5 rows changed').waitFor();
    await page.getByRole('link', { name: 'items' }).first().waitFor();
    await s.shot('bundle-imported');
    const depot = (await api('GET', '/organization/admin/project/depot/branch/master')).draftRevisionId;
    assert.equal((await api('GET', `/revision/${depot}/table/items/rows?first=10`)).totalCount, 5);
  });
});
