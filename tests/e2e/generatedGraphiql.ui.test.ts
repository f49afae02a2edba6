import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { ADMIN_PASSWORD, startGeneratedSystem } from './support/generatedHarness.ts';
import { endpointUrl, seedProject } from './support/generatedFixtures.ts';

// The bundled GraphiQL (generated-api.md §5.3) in a real browser: it renders under the page's CSP, makes no request
// outside the origin, introspects the endpoint and runs a query. Needs Debian's chromium and the postinstall build.
const CHROMIUM = '/usr/bin/chromium';
const BUILT = existsSync(fileURLToPath(new URL('../../admin-ui/dist-graphiql/index.html', import.meta.url)));
const skip = !existsSync(CHROMIUM) ? 'chromium is not installed' : !BUILT ? 'GraphiQL is not built (npm run build:graphiql)' : false;

test('GraphiQL runs a query against a generated endpoint, same-origin only', { skip }, async () => {
  const sys = await startGeneratedSystem();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const admin = await sys.login('admin', ADMIN_PASSWORD);
    const project = await seedProject(sys, admin, 'acme', 'pub', true);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
    });
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(sys.url) && !/^(data|blob):/.test(request.url())) outside.push(request.url());
    });
    // Bodies are read as the responses arrive and awaited before the assertions: on a loaded machine the large
    // introspection answer could still be reading when the query's answer was already on the screen.
    const reading: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') reading.push(response.text().catch((err: unknown) => `unreadable: ${String(err)}`));
    });
    await page.goto(`${sys.url}${endpointUrl('graphql', project)}`);
    await page.locator('.graphiql-query-editor .monaco-editor').first().waitFor({ timeout: 20_000 });
    await page.locator('.graphiql-query-editor .monaco-editor').first().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{ posts(data: { first: 1 }) { totalCount }');
    await page.keyboard.press('Control+Enter');
    // A locator, not waitForFunction: a string predicate is evaluated with eval in the page, which the page's CSP
    // (no 'unsafe-eval') refuses whenever the first check does not already pass.
    await page.locator('.graphiql-response', { hasText: 'totalCount' }).first().waitFor({ timeout: 20_000 });
    const answers = await Promise.all(reading);
    assert.ok(
      answers.some((text) => text.includes('__schema')),
      'the schema was introspected',
    );
    assert.ok(
      answers.some((text) => text.includes('"totalCount":7')),
      answers.join('\n'),
    );
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await sys.close();
  }
});
