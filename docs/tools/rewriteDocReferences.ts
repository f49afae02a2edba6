// One-off rewrite of citations in code comments to explicit repository paths, for the lead to run once when the
// parallel work has landed (rewriting ~670 comments while other branches edit the same files would only make
// conflicts). Both forms resolve (docs/README.md "How citations resolve"); explicit paths are easier to follow.
//
//   npx tsx docs/tools/rewriteDocReferences.ts               # dry run: lists what would change
//   npx tsx docs/tools/rewriteDocReferences.ts --write       # PERFORMANCE.md / STYLE.md → docs/reference/...
//   npx tsx docs/tools/rewriteDocReferences.ts --write --spec-paths   # also `auth.md §8.5` → `docs/spec/auth.md §8.5`
//
// docs/ and README.md are left alone (they link with relative paths); run `npm run docs:generate` afterwards.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './markdown.ts';

const write = process.argv.includes('--write');
const specPaths = process.argv.includes('--spec-paths');
const skipped = new Set(['node_modules', '.git', '.tmp', 'data', 'dist', 'dist-graphiql', 'docs']);
// The reference test's own examples must stay bare names.
const keep = new Set(['tests/architecture/docReferences.unit.test.ts']);
const scanned = /\.(ts|tsx|mts|mjs|js|cjs|md|ya?ml|conf)$|^Dockerfile$/;
const specNames = readdirSync(join(repoRoot, 'docs/spec'))
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .map((f) => f.slice(0, -3));

type Replacement = string | ((match: string, name: string) => string);
const specPath: Replacement = (_match, name) => `docs/spec/${name}.md`;
const rules: readonly { readonly pattern: RegExp; readonly replacement: Replacement }[] = [
  { pattern: /(?<![\w./-])PERFORMANCE\.md\b/g, replacement: 'docs/reference/performance.md' },
  { pattern: /(?<![\w./-])STYLE\.md\b/g, replacement: 'docs/reference/style.md' },
  ...(specPaths ? [{ pattern: new RegExp(`(?<![\\w./(-])(${specNames.join('|')})\\.md(?=\\)?\\s*§)`, 'g'), replacement: specPath }] : []),
];

function files(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
    if (skipped.has(entry.name) || (dir === '' && entry.name === 'README.md')) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) files(path, out);
    else if (scanned.test(entry.name) && !keep.has(path)) out.push(path);
  }
  return out;
}

let changedFiles = 0;
let changes = 0;
for (const file of files('')) {
  const before = readFileSync(join(repoRoot, file), 'utf8');
  let after = before;
  for (const { pattern, replacement } of rules) {
    // Narrowed for String.replace's two overloads.
    after = typeof replacement === 'string' ? after.replace(pattern, replacement) : after.replace(pattern, replacement);
  }
  if (after === before) continue;
  const count = before.split('\n').filter((line, i) => line !== after.split('\n')[i]).length;
  changedFiles += 1;
  changes += count;
  process.stdout.write(`${file}: ${count} line(s)\n`);
  if (write) writeFileSync(join(repoRoot, file), after);
}
process.stdout.write(`${write ? 'rewrote' : 'would rewrite'} ${changes} line(s) in ${changedFiles} file(s)\n`);
