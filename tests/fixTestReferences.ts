// Rewrites references to test files by an old name (tests/testReferences.ts) in every tracked text file, after test
// files were renamed to carry their kind. `--check` only lists what it would change and fails when there is any.
// Usage: tsx tests/fixTestReferences.ts [--check]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTestFile } from './testKinds.ts';
import { impliedRenames, rewriteReferences } from './testReferences.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const testFiles = tracked.filter(isTestFile);
const renames = impliedRenames(testFiles);
// This tool's own files name old paths on purpose; lock files and binaries are not prose.
const skip = /(^|\/)(testReferences(\.unit\.test)?\.ts|testKinds\.unit\.test\.ts|package-lock\.json)$|\.(png|jpg|ico|woff2?|gz|db)$/;
let changed = 0;
for (const file of tracked.filter((path) => !skip.test(path))) {
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    continue; // listed by git but not in the work tree (deleted, not yet committed)
  }
  if (!text.includes('.test.ts')) continue;
  const result = rewriteReferences(text, renames, testFiles);
  if (result.count === 0) continue;
  changed += 1;
  process.stdout.write(`${file}: ${result.count} reference(s)\n`);
  if (!check) writeFileSync(join(root, file), result.text);
}
if (check && changed > 0) {
  process.stderr.write(`${changed} file(s) name test files by an old name: run tsx tests/fixTestReferences.ts\n`);
  process.exit(1);
}
