// The visual schema editor (admin-ui.md §3.1 Schema editor, domain.md §5-§6) in Debian's Chromium against a real
// `strata serve`: a lossy type change previewed with the dry run (the rows that lose data counted and shown), saved
// only after an explicit confirmation (rows converted); a nested array of objects added; rename, reorder, a pattern
// the server rejects shown at its field, foreign keys offered from the revision's tables; JSON mode as a second tab;
// every control named by its field's path; 390×844. Screenshots in tests/.tmp/screenshots/schema-editor/.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';

const ITEMS = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'price'],
  properties: { name: { type: 'string', default: '' }, price: { type: 'string', default: '' } },
};
const OWNERS = { type: 'object', additionalProperties: false, required: ['label'], properties: { label: { type: 'string', default: '' } } };
const UI = '/admin/org/admin/project/store/branch/master/draft/table/items';

describe('Admin UI: schema editor', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  let draft = '';

  /** The editor of the field at a schema pointer. */
  const fieldAt = (page: Page, pointer: string): Locator => page.locator(`[data-field="${pointer}"]`).first();
  /** A control by its whole accessible name, unique on the screen ("Type of field lines item › qty"). */
  const control = (page: Page, name: string): Locator => page.getByLabel(name, { exact: true });
  const fits = (page: Page): Promise<unknown> => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');
  const rowData = async (id: string): Promise<Record<string, unknown>> => (await api('GET', `/revision/${draft}/table/items/row/${id}`)).data;

  before(async () => {
    suite = await openAdminUiSuite('schema-editor', async (call) => {
      api = call;
      await api('POST', '/organization/admin/projects', { projectName: 'store' });
      draft = (await api('GET', '/organization/admin/project/store/branch/master')).draftRevisionId as string;
      await api('POST', `/revision/${draft}/tables`, { tableId: 'owners', schema: OWNERS });
      await api('POST', `/revision/${draft}/tables`, { tableId: 'items', schema: ITEMS });
      const rows = [
        { rowId: 'i1', data: { name: 'Lamp', price: '12.5' } },
        { rowId: 'i2', data: { name: 'Desk', price: 'ask' } },
        { rowId: 'i3', data: { name: 'Chair', price: '7' } },
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

  test('a lossy type change shows the rows that lose data and saves only after an explicit confirmation', async () => {
    const { page } = s;
    await page.goto(UI);
    await control(page, 'Type of field price').selectOption('number');
    await page.getByText('1 change to send as JSON Patch').click();
    const patch = JSON.parse((await page.getByLabel('JSON Patch').textContent()) ?? '[]') as unknown[];
    assert.deepEqual(patch, [{ op: 'replace', path: '/properties/price', value: { type: 'number', default: 0 } }]);
    await page.getByRole('button', { name: 'Preview migration' }).click();
    const preview = page.getByRole('region', { name: 'Migration preview' });
    await preview.getByText('3 rows will change').waitFor();
    // "ask" is no number: it becomes 0 (domain.md §6), the one row of three that loses data.
    await preview.getByRole('alert').getByText('1 row will lose data.').waitFor();
    const lost = preview.getByRole('table', { name: 'Data lost' });
    assert.deepEqual(await lost.getByRole('rowheader').allTextContents(), ['i2']);
    const [path, before, after] = await lost.getByRole('row').nth(1).getByRole('cell').allTextContents();
    assert.match(path ?? '', /price/);
    assert.deepEqual([before, after], ['"ask"', '0']);
    const sample = preview.getByRole('table', { name: 'Row i2 before and after' });
    assert.deepEqual(await sample.getByRole('cell').allTextContents(), ['"ask"', '0']);
    assert.equal((await rowData('i1')).price, '12.5', 'the dry run changed nothing');
    // Save is not offered as usual: it waits for the confirmation, which has the focus.
    const save = page.getByRole('button', { name: 'Save schema' });
    const understood = page.getByRole('checkbox', { name: 'I understand that 1 row will lose data' });
    assert.equal(await save.isDisabled(), true, 'Save waits for the confirmation');
    assert.equal(
      await page.evaluate('document.activeElement?.labels?.[0]?.textContent'),
      'I understand that 1 row will lose data',
      'the focus is on the confirmation',
    );
    await s.shot('lossy-change-preview');
    await understood.check();
    assert.equal(await save.isEnabled(), true);
    await save.click();
    await page.getByText('Schema saved (1 operation).').waitFor();
    const grid = page.getByRole('region', { name: 'Rows table, scrollable' });
    await grid.getByRole('cell', { name: '12.5', exact: true }).waitFor();
    await s.shot('type-change-saved');
    assert.deepEqual([(await rowData('i1')).price, (await rowData('i2')).price, (await rowData('i3')).price], [12.5, 0, 7]);
  });

  test('adds a nested array of objects', async () => {
    const { page } = s;
    await page.goto(UI);
    await page.getByRole('button', { name: 'Add field to items' }).click();
    await control(page, 'Name of field field3').fill('lines');
    await control(page, 'Type of field lines').selectOption('array');
    const lines = fieldAt(page, '/properties/lines');
    await control(page, 'Item type of lines').selectOption('object');
    await lines.getByRole('button', { name: 'Add field to lines item' }).click();
    await control(page, 'Name of field lines item › field1').fill('sku');
    await lines.getByRole('button', { name: 'Add field to lines item' }).click();
    await control(page, 'Name of field lines item › field2').fill('qty');
    await control(page, 'Type of field lines item › qty').selectOption('number');
    await control(page, 'Default of field lines item › qty').fill('1');
    await page.getByRole('button', { name: 'Preview migration' }).click();
    const preview = page.getByRole('region', { name: 'Migration preview' });
    await preview.getByText('3 rows will change').waitFor();
    // Adding a field loses nothing: Save is offered at once.
    assert.equal(await preview.getByRole('alert').count(), 0);
    assert.equal(await page.getByRole('checkbox', { name: /will lose data/ }).count(), 0);
    await s.shot('nested-array-preview');
    await page.getByRole('button', { name: 'Save schema' }).click();
    await page.getByText(/Schema saved/).waitFor();
    const { schema } = await api('GET', `/revision/${draft}/table/items`);
    assert.deepEqual(schema.properties.lines, {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sku', 'qty'],
        properties: { sku: { type: 'string', default: '' }, qty: { type: 'number', default: 1 } },
      },
    });
    assert.deepEqual((await rowData('i1')).lines, []);
  });

  test('rename and reorder keep values; a pattern the server rejects is shown at its field; foreign keys from the revision', async () => {
    const { page } = s;
    await page.goto(UI);
    const name = fieldAt(page, '/properties/name');
    const foreignKey = control(page, 'Foreign key of field name');
    await foreignKey.locator('option', { hasText: 'owners' }).waitFor({ state: 'attached' });
    const fkOptions = await foreignKey.locator('option').allTextContents();
    assert.deepEqual(fkOptions, ['(none)', 'owners'], 'other tables of the revision, not the table itself');
    await control(page, 'Pattern of field name').fill('^(a)\\1$');
    await page.getByRole('button', { name: 'Preview migration' }).click();
    await name.getByRole('list', { name: 'Problems at /properties/name' }).getByText('/properties/name/pattern').waitFor();
    await s.shot('pattern-error-at-field');
    await control(page, 'Pattern of field name').fill('');
    await control(page, 'Name of field name').fill('title');
    await page.getByRole('button', { name: 'Move title down in the schema' }).click();
    await page.getByRole('button', { name: 'Preview migration' }).click();
    await page.getByRole('region', { name: 'Migration preview' }).waitFor();
    await page.getByRole('button', { name: 'Save schema' }).click();
    await page.getByText(/Schema saved/).waitFor();
    const { schema } = await api('GET', `/revision/${draft}/table/items`);
    assert.deepEqual(Object.keys(schema.properties), ['price', 'title', 'lines']);
    assert.equal((await rowData('i1')).title, 'Lamp');
    // JSON mode stays available as the second tab and shows the saved schema.
    await page.getByRole('group', { name: 'Schema editing mode' }).getByRole('button', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Schema (edit and save; rows are migrated)').inputValue()) as {
      properties: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(json.properties), ['price', 'title', 'lines']);
  });

  test('keyboard only: add a field (the focus moves to its name), pick its type, preview and save', async () => {
    const { page } = s;
    await page.goto(UI);
    await page.getByRole('button', { name: 'Add field to items' }).focus();
    await page.keyboard.press('Enter');
    // The new field's name has the focus, selected: what is typed replaces it.
    await page.keyboard.type('rating');
    assert.equal(await control(page, 'Name of field rating').inputValue(), 'rating');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'SELECT', 'Tab reaches the type');
    await page.keyboard.press('ArrowDown');
    assert.equal(await control(page, 'Type of field rating').inputValue(), 'number');
    await page.getByRole('button', { name: 'Preview migration' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'Migration preview' }).getByText('3 rows will change').waitFor();
    // The button keeps the focus and now saves what was previewed.
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Save schema');
    await page.keyboard.press('Enter');
    await page.getByText(/Schema saved/).waitFor();
    const { schema } = await api('GET', `/revision/${draft}/table/items`);
    assert.deepEqual(schema.properties.rating, { type: 'number', default: 0 });
    assert.equal((await rowData('i2')).rating, 0);
  });

  test('works at 390×844 without horizontal scrolling of the page', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(UI);
    await fieldAt(page, '/properties/lines').waitFor();
    assert.equal(await fits(page), true, 'schema editor fits');
    await page.locator('#schema-title').scrollIntoViewIfNeeded();
    await s.shot('mobile-schema-editor');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
