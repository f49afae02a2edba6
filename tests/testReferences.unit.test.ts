// tests/testReferences.ts: old test file names found from the files as they are now, and rewritten in prose and code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { impliedRenames, rewriteReferences } from './testReferences.ts';

const files = [
  'tests/e2e/serve.e2e.test.ts',
  'tests/e2e/adminUiTeams.ui.test.ts',
  'tests/architecture/importRules.unit.test.ts',
  'deploy/main.e2e.test.ts',
  'tests/chaos/shortRun.chaos.test.ts',
  'admin-ui/src/lib/rowQuery.unit.test.ts',
  'query-service/rows/rowQuery.unit.test.ts',
  'tests/contract/viewStore.contract.test.ts',
];
const renames = impliedRenames(files);
const rewrite = (text: string): string => rewriteReferences(text, renames, files).text;

test('old names are the plain name and the other kinds, never a file that exists', () => {
  const to = (from: string): string | undefined => renames.find((rename) => rename.from === from)?.to;
  assert.equal(to('tests/e2e/serve.test.ts'), 'tests/e2e/serve.e2e.test.ts');
  assert.equal(to('deploy/main.int.test.ts'), 'deploy/main.e2e.test.ts');
  assert.equal(to('tests/chaos/chaos.test.ts'), 'tests/chaos/shortRun.chaos.test.ts');
  assert.equal(to('tests/e2e/serve.e2e.test.ts'), undefined);
  assert.equal(
    impliedRenames([...files, 'tests/e2e/serve.test.ts']).find((rename) => rename.from === 'tests/e2e/serve.test.ts'),
    undefined,
  );
});

test('whole paths and unambiguous bare names are rewritten, in Markdown and in comments', () => {
  assert.equal(rewrite('Tested in `tests/e2e/adminUiTeams.test.ts`.'), 'Tested in `tests/e2e/adminUiTeams.ui.test.ts`.');
  assert.equal(rewrite('// see ../tests/e2e/serve.test.ts and main.int.test.ts'), '// see ../tests/e2e/serve.e2e.test.ts and main.e2e.test.ts');
  assert.equal(
    rewrite('suites (tests/contract/eventStore.test.ts, viewStore.test.ts)'),
    'suites (tests/contract/eventStore.test.ts, viewStore.contract.test.ts)',
  );
  assert.equal(rewrite('[importRules](tests/architecture/importRules.test.ts#L3)'), '[importRules](tests/architecture/importRules.unit.test.ts#L3)');
  assert.equal(rewrite('`npm test` runs `tests/chaos/chaos.test.ts`'), '`npm test` runs `tests/chaos/shortRun.chaos.test.ts`');
});

test('names that are part of another name, shared bare names and current names stay as they are', () => {
  for (const text of [
    'tests/e2e/serve.e2e.test.ts',
    'observe.test.ts', // another file's name ending the same way
    'x/serve.test.ts', // another folder's file
    'rowQuery.test.ts', // two rowQuery.unit.test.ts files: the bare name is ambiguous
    'tests/e2e/serve.test.tsx',
  ]) {
    assert.equal(rewrite(text), text);
  }
  assert.equal(rewriteReferences('nothing here', renames, files).count, 0);
  assert.equal(rewriteReferences('a serve.test.ts and tests/e2e/serve.test.ts', renames, files).count, 2);
});
