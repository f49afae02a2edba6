// Renders the reference pages that restate code (docs/README.md "Generated pages"). `npm run docs:generate` writes
// them; generateDocs.unit.test.ts renders them again and fails when a committed page differs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCliPage } from './cliPage.ts';
import { configVariableNames, renderConfigurationPage } from './configurationPage.ts';
import { renderErrorsPage } from './errorsPage.ts';
import { renderLimitsPage } from './limitsPage.ts';
import { repoRoot } from './markdown.ts';

/** Every generated page by its path from the repository root. */
export async function renderGeneratedPages(): Promise<ReadonlyMap<string, string>> {
  return new Map([
    ['docs/reference/configuration.md', renderConfigurationPage()],
    ['docs/reference/errors.md', renderErrorsPage()],
    ['docs/reference/cli.md', await renderCliPage()],
    ['docs/reference/limits.md', await renderLimitsPage(configVariableNames())],
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, text] of await renderGeneratedPages()) {
    writeFileSync(join(repoRoot, path), text);
    process.stdout.write(`wrote ${path}\n`);
  }
}
