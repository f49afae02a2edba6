// Runs every *.test.ts file of the repository with node's test runner (node 20 has no glob support for --test).
// Usage: npm test [-- <path or substring> ...]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const skipped = new Set(['node_modules', 'data', 'dist', '.git', '.tmp']);

function findTests(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) findTests(full, out);
    else if (entry.name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = findTests(root, [])
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no test files match ${filters.join(' ')}\n`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=600000', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' } },
);
process.exit(result.status ?? 1);
