// Takes the README's screenshot (docs/images/admin-ui-table.png) from a running server: signs in to the Admin UI and
// opens a table of the draft. Usage, against a server that has project `blog` with table `posts` in `admin`'s
// organization (the getting-started guide creates them):
//   npx tsx docs/tools/screenshot.ts http://localhost:8080 [password]
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { repoRoot } from './markdown.ts';

const origin = process.argv[2] ?? 'http://localhost:8080';
const password = process.argv[3] ?? 'admin';
const out = join(repoRoot, 'docs/images/admin-ui-table.png');

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 620 }, baseURL: origin });
  await page.goto('/admin/');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Organizations' }).waitFor();
  await page.goto('/admin/org/admin/project/blog/branch/master/draft/table/posts');
  await page.getByRole('table').waitFor();
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${out}\n`);
} finally {
  await browser.close();
}
