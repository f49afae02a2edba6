// The schema-driven row form (admin-ui.md §3.1 Row form) in Debian's Chromium against a real `strata serve`: a row
// created with the form (foreign key from the picker, enum, date-time, markdown, arrays, nested fieldsets, a
// read-only field) after a validation error shown at its field; the same row edited in JSON mode; the picker by
// keyboard; 390×844. Screenshots in tests/.tmp/screenshots/row-form/; no console error or foreign request.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Session } from './support/adminUiHarness.ts';
import { openAdminUiSuite, type AdminApi, type AdminUiSuite } from './support/adminUiSuite.ts';

const USERS = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', default: '' } },
};
const POSTS = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'status', 'publishedAt', 'body', 'author', 'views', 'featured', 'tags', 'meta'],
  properties: {
    title: { type: 'string', default: 'Untitled', pattern: '^[A-Z]', description: 'Starts with a capital letter.' },
    status: { type: 'string', default: 'draft', enum: ['draft', 'published'] },
    publishedAt: { type: 'string', default: '', format: 'date-time' },
    body: { type: 'string', default: '', contentMediaType: 'text/markdown' },
    author: { type: 'string', default: '', foreignKey: 'users' },
    views: { type: 'number', default: 0 },
    featured: { type: 'boolean', default: false },
    tags: { type: 'array', items: { type: 'string', default: '' } },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: ['slug', 'source'],
      properties: {
        slug: { type: 'string', default: 'computed', readOnly: true },
        source: { type: 'object', additionalProperties: false, required: ['name'], properties: { name: { type: 'string', default: '' } } },
      },
    },
  },
};
const UI = '/admin/org/admin/project/blog/branch/master/draft/table/posts';

describe('Admin UI: row form', { concurrency: false }, () => {
  let suite: AdminUiSuite;
  let s: Session;
  let api: AdminApi;
  let draft = '';

  const field = (scope: Page | Locator, pointer: string): Locator => scope.locator(`[data-path="${pointer}"]`).first();
  const fits = (page: Page): Promise<unknown> => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

  before(async () => {
    suite = await openAdminUiSuite('row-form', async (call) => {
      api = call;
      await api('POST', '/organization/admin/projects', { projectName: 'blog' });
      draft = (await api('GET', '/organization/admin/project/blog/branch/master')).draftRevisionId as string;
      await api('POST', `/revision/${draft}/tables`, { tableId: 'users', schema: USERS });
      await api('POST', `/revision/${draft}/tables`, { tableId: 'posts', schema: POSTS });
      const users = [
        { rowId: 'alice', data: { name: 'Alice Martin' } },
        { rowId: 'bob', data: { name: 'Bob Stone' } },
        { rowId: 'carol', data: { name: 'Carol Alison' } },
      ];
      await api('POST', `/revision/${draft}/table/users/rows/bulk`, { rows: users });
    });
    s = suite.s;
  });
  after(async () => {
    await suite?.close();
  });
  afterEach(() => {
    assert.deepEqual(s.problems.splice(0), [], 'console errors or requests to other origins');
  });

  test('creates a row with the form: picker, enum, date-time, markdown, arrays, nested fieldsets; an error at its field', async () => {
    const { page } = s;
    await page.goto(UI);
    const form = page.locator('form[aria-labelledby="create-row-title"]');
    await form.getByRole('heading', { name: 'Add a row' }).waitFor();
    await form.getByLabel('Row id').fill('p1');
    await form.getByLabel('title', { exact: true }).fill('lowercase start');
    await form.getByLabel('status', { exact: true }).selectOption('published');
    await form.getByLabel('publishedAt', { exact: true }).fill('2025-03-01T09:30:15');
    const body = form.getByLabel('body', { exact: true });
    assert.equal(await body.evaluate((el) => el.tagName), 'TEXTAREA', 'markdown is a text area');
    await body.fill('# Hello\n\nSome *markdown*.');
    await form.getByLabel('views', { exact: true }).fill('12');
    await form.getByLabel('featured', { exact: true }).check();
    // Foreign key: search by the label field ("Alison" is carol's name), pick from the list.
    const author = form.getByRole('combobox', { name: 'author' });
    await author.fill('alison');
    const option = form.getByRole('option', { name: /carol/ });
    await option.waitFor();
    // Until the search answers, the list may still show every row.
    await form.getByRole('option', { name: /alice/ }).waitFor({ state: 'detached' });
    assert.deepEqual(
      await form.getByRole('listbox', { name: 'Rows of users' }).getByRole('option').allTextContents(),
      ['carol Carol Alison'],
      'only carol matches',
    );
    await s.shot('picker-open');
    await option.click();
    assert.equal(await author.inputValue(), 'carol');
    // Arrays: add three (Add moves the focus into the new item: what is typed next lands there), remove one, reorder.
    const addTag = form.getByRole('button', { name: 'Add to tags' });
    for (const [i, tag] of ['one', 'two', 'three'].entries()) {
      await addTag.click();
      await page.keyboard.type(tag);
      assert.equal(await form.getByLabel(`tags ${i + 1}`, { exact: true }).inputValue(), tag, `typing after Add fills tags ${i + 1}`);
    }
    await form.getByRole('button', { name: 'Remove tags 2' }).click();
    await form.getByRole('button', { name: 'Move tags 2 up' }).click();
    // Nested fieldsets; the read-only field is shown but cannot be edited.
    const meta = form.getByRole('group', { name: 'meta' });
    const slug = meta.getByLabel('slug in meta', { exact: true });
    assert.equal(await slug.inputValue(), 'computed');
    assert.equal(await slug.getAttribute('readonly'), '');
    await meta.getByRole('group', { name: 'source in meta' }).getByLabel('name in meta › source', { exact: true }).fill('newsroom');

    await form.getByRole('button', { name: 'Add row' }).click();
    const titleError = field(form, '/title').locator('.field-error');
    await titleError.waitFor();
    assert.match((await titleError.textContent()) ?? '', /pattern/i);
    assert.equal(await form.getByLabel('title', { exact: true }).getAttribute('aria-invalid'), 'true');
    await s.shot('validation-error-at-field');

    await form.getByLabel('title', { exact: true }).fill('Hello world');
    await form.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('Row p1 added.').waitFor();
    await s.shot('row-created');
    const row = await api('GET', `/revision/${draft}/table/posts/row/p1`);
    assert.deepEqual(row.data, {
      title: 'Hello world',
      status: 'published',
      publishedAt: '2025-03-01T09:30:15Z',
      body: '# Hello\n\nSome *markdown*.',
      author: 'carol',
      views: 12,
      featured: true,
      tags: ['three', 'one'],
      meta: { slug: 'computed', source: { name: 'newsroom' } },
    });
  });

  test('edits the same row in JSON mode, and the form shows the saved values', async () => {
    const { page } = s;
    await page.goto(`${UI}/row/p1`);
    await page.getByRole('button', { name: 'JSON' }).click();
    const editor = page.getByLabel('Row data (JSON)');
    const data = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    assert.equal(data.author, 'carol');
    await editor.fill(JSON.stringify({ ...data, views: 'many' }, null, 2));
    await page.getByRole('button', { name: 'Save row' }).click();
    // In JSON mode the detail is listed with its pointer.
    await page.getByRole('list', { name: 'Validation errors' }).getByText('/views').waitFor();
    await editor.fill(JSON.stringify({ ...data, views: 42, tags: ['json'] }, null, 2));
    await page.getByRole('button', { name: 'Save row' }).click();
    await page.getByText('Row saved.').waitFor();
    await s.shot('row-edited-json');
    const row = await api('GET', `/revision/${draft}/table/posts/row/p1`);
    assert.equal(row.data.views, 42);
    assert.deepEqual(row.data.tags, ['json']);
    await page.getByRole('button', { name: 'Form' }).click();
    assert.equal(await page.getByLabel('views', { exact: true }).inputValue(), '42');
    assert.equal(await page.getByLabel('tags 1', { exact: true }).inputValue(), 'json');
  });

  test('form and JSON are one document: a value the form cannot show is shown as it is and flagged; unknown properties can be removed', async () => {
    const { page } = s;
    await page.goto(`${UI}/row/p1`);
    const mode = page.getByRole('group', { name: 'Row editing mode' });
    await mode.getByRole('button', { name: 'JSON' }).click();
    const editor = page.getByLabel('Row data (JSON)');
    const data = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    const meta = data.meta as Record<string, unknown>;
    await editor.fill(JSON.stringify({ ...data, views: 'cheap', featured: 'yes', extra: 1, meta: { ...meta, note: 'x' } }, null, 2));
    await mode.getByRole('button', { name: 'Form' }).click();

    // The number field shows "cheap" as it is (never a stand-in 0), says what is wrong and offers a replacement.
    const views = page.getByRole('group', { name: 'views', exact: true });
    await views.getByText('"cheap"').waitFor();
    assert.match((await views.locator('.field-error').first().textContent()) ?? '', /Expected a number; the row holds a string/);
    assert.equal(await page.getByRole('spinbutton', { name: 'views' }).count(), 0, 'no number input pretends a value');
    assert.equal(await page.getByRole('group', { name: 'featured', exact: true }).getByText('"yes"').count(), 1);
    // Properties the schema does not declare, at the top and inside meta, each with Remove.
    const unknownTop = page.getByRole('group', { name: 'Not in the schema', exact: true });
    assert.deepEqual(await unknownTop.locator('li > code:first-child').allTextContents(), ['extra']);
    await page.getByRole('group', { name: 'Not in the schema (meta)' }).getByText('note', { exact: true }).waitFor();
    await s.shot('form-flags-json-values');

    // Saved as it is, the server refuses it and its answer lands at the flagged field.
    await page.getByRole('button', { name: 'Save row' }).click();
    await views
      .locator('.field-error', { hasText: /number/ })
      .nth(1)
      .waitFor();

    await page.getByRole('button', { name: 'Remove extra from the row' }).click();
    await page.getByRole('button', { name: 'Remove note from meta' }).click();
    await page.getByRole('button', { name: 'Replace featured with false' }).click();
    await page.getByRole('button', { name: 'Replace views with 0' }).click();
    const number = page.getByLabel('views', { exact: true });
    assert.equal(await number.inputValue(), '0');
    await number.fill('7');
    assert.equal(await page.getByRole('group', { name: /Not in the schema/ }).count(), 0);
    // The JSON shows exactly what the form shows.
    await mode.getByRole('button', { name: 'JSON' }).click();
    assert.deepEqual(JSON.parse(await editor.inputValue()), { ...data, views: 7, featured: false });
    await page.getByRole('button', { name: 'Save row' }).click();
    await page.getByText('Row saved.').waitFor();
    assert.deepEqual((await api('GET', `/revision/${draft}/table/posts/row/p1`)).data, { ...data, views: 7, featured: false });
    await mode.getByRole('button', { name: 'Form' }).click();
  });

  test('keyboard only: the foreign key picker and saving', async () => {
    const { page } = s;
    await page.goto(`${UI}/row/p1`);
    const author = page.getByRole('combobox', { name: 'author' });
    // An id typed without the picker is checked by the server, and its answer shows at the field.
    await author.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('nobody');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const authorError = field(page, '/author').locator('.field-error');
    await authorError.waitFor();
    assert.match((await authorError.textContent()) ?? '', /nobody/);
    await s.shot('foreign-key-error-at-field');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('bo');
    await page.getByRole('option', { name: /bob/ }).waitFor();
    await page.getByRole('option', { name: /alice/ }).waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal(await author.inputValue(), 'bob');
    assert.equal(await author.getAttribute('aria-expanded'), 'false');
    // Enter in a text input submits the form.
    await page.getByLabel('views', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Row saved.').waitFor();
    const row = await api('GET', `/revision/${draft}/table/posts/row/p1`);
    assert.equal(row.data.author, 'bob');
  });

  test('works at 390×844 without horizontal scrolling of the page', async () => {
    const { page } = s;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(UI);
    await page.getByRole('heading', { name: 'Add a row' }).waitFor();
    await page.getByRole('button', { name: 'Add to tags' }).click();
    assert.equal(await fits(page), true, 'table page with the row form fits');
    await s.shot('mobile-create-row');
    await page.goto(`${UI}/row/p1`);
    await page.getByRole('combobox', { name: 'author' }).waitFor();
    assert.equal(await fits(page), true, 'row page fits');
    await s.shot('mobile-row');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
