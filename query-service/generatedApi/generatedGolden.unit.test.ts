import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { blogTables } from '../testing/blogFixture.ts';
import { buildGeneratedSchema } from './graphql/buildGeneratedSchema.ts';
import { createFakeDataSource } from '../testing/fakeDataSource.ts';
import { buildOpenApi } from './rest/buildOpenApi.ts';

/**
 * The generated surfaces of the fixture project, pinned as files in __golden__. A deliberate change rewrites them
 * with `STRATA_UPDATE_GOLDEN=1 npm test -- generatedGolden` (review the diff).
 */
const update = process.env.STRATA_UPDATE_GOLDEN === '1';

function sdl(mode: 'head' | 'draft'): string {
  const dataSource = createFakeDataSource({});
  return `${buildGeneratedSchema({ projectName: 'blog', mode, tables: blogTables, rootFieldPrefix: false, dataSource }).sdl}\n`;
}

function openApi(mode: 'head' | 'draft'): string {
  const document = buildOpenApi({
    org: 'acme',
    projectName: 'blog',
    branchName: 'master',
    segment: mode,
    revisionId: 'rev_0000000000000000001',
    mode,
    isPublic: mode === 'head',
    tables: blogTables,
  });
  return `${JSON.stringify(document, null, 2)}\n`;
}

const cases: readonly (readonly [file: string, produce: () => string])[] = [
  ['blog.draft.graphql', () => sdl('draft')],
  ['blog.head.graphql', () => sdl('head')],
  ['blog.draft.openapi.json', () => openApi('draft')],
  ['blog.head.openapi.json', () => openApi('head')],
];

describe('generated API golden files', () => {
  for (const [file, produce] of cases) {
    test(file, () => {
      const url = new URL(`./__golden__/${file}`, import.meta.url);
      const actual = produce();
      if (update) {
        writeFileSync(url, actual);
        return;
      }
      let expected: string;
      try {
        expected = readFileSync(url, 'utf8');
      } catch {
        assert.fail(`${file} is missing: run with STRATA_UPDATE_GOLDEN=1`);
      }
      assert.equal(actual, expected, `${file} changed: review, then rerun with STRATA_UPDATE_GOLDEN=1`);
    });
  }
});
