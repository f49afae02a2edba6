// A generated reference page that differs from what the code renders now is stale: `npm run docs:generate`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderGeneratedPages } from './generateDocs.ts';
import { anchorsOf, repoRoot } from './markdown.ts';

const pages = await renderGeneratedPages();

for (const [path, rendered] of pages) {
  test(`${path} is what the code renders now`, () => {
    const committed = readFileSync(join(repoRoot, path), 'utf8');
    assert.ok(committed === rendered, `${path} is stale: run npm run docs:generate and commit the result`);
  });
}

test('the pages restate the code', () => {
  const configuration = pages.get('docs/reference/configuration.md') ?? '';
  // A variable read by loadConfig, with its range from the parser and its meaning from the spec.
  assert.match(configuration, /`JWT_ACCESS_TOKEN_TTL_SECONDS` \| `1800` \| an integer between 60 and 86400 \| Access-token/);
  assert.match(configuration, /`COOKIE_SECURE` \| `false` \(production: `true`\)/);
  assert.match(configuration, /`JWT_SECRET` \| unset \(production: \*\*required\*\*\)/);
  assert.ok(!configuration.includes('x'.repeat(32)), 'no secret value is printed');
  const errors = pages.get('docs/reference/errors.md') ?? '';
  assert.match(errors, /<a id="api_key_scope"><\/a>`API_KEY_SCOPE` \| 403 \|/);
  assert.ok(anchorsOf(errors).has('token_expired'));
  const cli = pages.get('docs/reference/cli.md') ?? '';
  assert.match(cli, /## strata projections rebuild\n\n```text\nUsage: strata projections rebuild/);
  const limits = pages.get('docs/reference/limits.md') ?? '';
  assert.match(limits, /\| GraphQL depth \| 12 \| `400 QUERY_TOO_COMPLEX` \|/);
  assert.match(limits, /\[`BODY_LIMIT`\]\(configuration\.md#body_limit\)/);
});
