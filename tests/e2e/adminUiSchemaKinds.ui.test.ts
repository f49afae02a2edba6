// The schema editor's controls for integer, bounds, lengths, item counts, Unique and Indexed (admin-ui.md §3.2,
// domain.md §5.1, §5.5) in Debian's Chromium against a real `strata serve`: a number field turned into a bounded
// integer with the lossy rows confirmed; Unique over repeated values refused with the clashing rows listed, then
// saved; item counts and Indexed on a new array and boolean, with no Unique/Indexed inside arrays. Every screenshot
// checks the screen at 1280×800 and 390×844 (axe-core, overflow, unique control names). Screenshots in
// tests/.tmp/screenshots/schema-kinds/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';

const ITEMS = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'qty'],
  properties: { name: { type: 'string', default: '' }, qty: { type: 'number', default: 0 } },
};
const UI = '/admin/org/admin/project/kinds/branch/master/draft/table/items';

describe('Admin UI: schema editor kinds, bounds, unique and indexed', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  let draft = '';

  /** A control by its whole accessible name, unique on the screen ("Minimum of field qty"). */
  const control = (page: Page, name: string): Locator => page.getByLabel(name, { exact: true });
  const rowData = async (id: string): Promise<Record<string, unknown>> => (await api('GET', `/revision/${draft}/table/items/row/${id}`)).data;
  const schema = async (): Promise<{ properties: Record<string, unknown> }> => (await api('GET', `/revision/${draft}/table/items`)).schema;

  before(async () => {
    suite = await openAdminUiSuite('schema-kinds', async (call) => {
      api = call;
      await api('POST', '/organization/admin/projects', { projectName: 'kinds' });
      draft = (await api('GET', '/organization/admin/project/kinds/branch/master')).draftRevisionId as string;
      await api('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: ITEMS });
      const rows = [
        { rowId: 'i1', data: { name: 'Lamp', qty: 1.5 } },
        { rowId: 'i2', data: { name: 'Desk', qty: 3 } },
        { rowId: 'i3', data: { name: 'Lamp', qty: 7 } },
      ];
      await api('POST', `/revision/${draft}/table/items/rows/bulk`, { rows });
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('number -> integer with bounds: a fraction is refused as a bound, the lossy rows are confirmed before saving', async () => {
    const { page } = s;
    await page.goto(UI);
    await control(page, 'Type of field qty').selectOption('integer');
    const minimum = control(page, 'Minimum of field qty');
    await minimum.fill('2.5');
    await page.getByText('Enter a whole number (at most 2^53 - 1 in size).').waitFor();
    assert.equal(await minimum.getAttribute('aria-invalid'), 'true');
    await minimum.fill('0');
    await control(page, 'Maximum of field qty').fill('5');
    await page.getByText('1 change to send as JSON Patch').click();
    const patch = JSON.parse((await page.getByLabel('JSON Patch').textContent()) ?? '[]') as unknown[];
    assert.deepEqual(patch, [{ op: 'replace', path: '/properties/qty', value: { type: 'integer', default: 0, minimum: 0, maximum: 5 } }]);
    await page.getByRole('button', { name: 'Preview migration' }).click();
    const preview = page.getByRole('region', { name: 'Migration preview' });
    // 1.5 is truncated to 1 and 7 is above the maximum (-> the default 0): two rows lose data; 3 is kept.
    await preview.getByRole('alert').getByText('2 rows will lose data.').waitFor();
    await s.shot('integer-bounds-preview');
    await page.getByRole('checkbox', { name: 'I understand that 2 rows will lose data' }).check();
    await page.getByRole('button', { name: 'Save schema' }).click();
    await page.getByText('Schema saved (1 operation).').waitFor();
    assert.deepEqual([(await rowData('i1')).qty, (await rowData('i2')).qty, (await rowData('i3')).qty], [1, 3, 0]);
    assert.deepEqual((await schema()).properties.qty, { type: 'integer', default: 0, minimum: 0, maximum: 5 });
  });

  test('Unique over repeated values lists the clashing rows; once they differ it saves, with lengths; Unique fixes Indexed', async () => {
    const { page } = s;
    await page.goto(UI);
    await control(page, 'Unique of field name').check();
    const indexed = control(page, 'Indexed of field name');
    assert.equal(await indexed.isChecked(), true, 'a unique field is indexed');
    assert.equal(await indexed.isDisabled(), true);
    await control(page, 'Minimum length of field name').fill('1');
    await control(page, 'Maximum length of field name').fill('20');
    await page.getByRole('button', { name: 'Preview migration' }).click();
    const clashes = page.getByRole('list', { name: 'Rows that would repeat a unique value' });
    await clashes.getByText('Another row ("i1") already has "/name" = "Lamp"').waitFor();
    assert.match((await clashes.textContent()) ?? '', /row i3/);
    await s.shot('unique-clash');
    await api('PUT', `/revision/${draft}/table/items/row/i3`, { data: { name: 'Chair', qty: 0 } });
    await page.getByRole('button', { name: 'Preview migration' }).click();
    await page.getByRole('region', { name: 'Migration preview' }).waitFor();
    await page.getByRole('button', { name: 'Save schema' }).click();
    await page.getByText(/Schema saved/).waitFor();
    assert.deepEqual((await schema()).properties.name, { type: 'string', default: '', 'x-unique': true, minLength: 1, maxLength: 20 });
    // The saved keyword shows as it was saved.
    await page.reload();
    assert.equal(await control(page, 'Unique of field name').isChecked(), true);
    assert.equal(await control(page, 'Maximum length of field name').inputValue(), '20');
  });

  test('item counts on an array of integers and Indexed on a boolean; nothing inside an array can be unique or indexed', async () => {
    const { page } = s;
    await page.goto(UI);
    const add = page.getByRole('button', { name: 'Add field to items' });
    await add.click();
    await control(page, 'Name of field field3').fill('tags');
    await control(page, 'Type of field tags').selectOption('array');
    await control(page, 'Item type of tags').selectOption('integer');
    await control(page, 'Maximum items of field tags').fill('3');
    await control(page, 'Minimum of tags item').fill('1');
    assert.equal(await page.getByLabel(/^(Unique|Indexed) of (field tags|tags item)$/).count(), 0);
    await add.click();
    await control(page, 'Name of field field4').fill('done');
    await control(page, 'Type of field done').selectOption('boolean');
    assert.equal(await control(page, 'Unique of field done').count(), 0, 'a boolean cannot be unique');
    await control(page, 'Indexed of field done').check();
    await s.shot('items-and-indexed');
    await page.getByRole('button', { name: 'Preview migration' }).click();
    await page.getByRole('region', { name: 'Migration preview' }).getByText('3 rows will change').waitFor();
    await page.getByRole('button', { name: 'Save schema' }).click();
    await page.getByText(/Schema saved/).waitFor();
    const { properties } = await schema();
    assert.deepEqual(properties.tags, { type: 'array', maxItems: 3, items: { type: 'integer', default: 0, minimum: 1 } });
    assert.deepEqual(properties.done, { type: 'boolean', default: false, 'x-index': true });
    assert.deepEqual((await rowData('i2')).tags, []);
  });
});
