// Runs the test files of one or more tiers with node's test runner (node 20 has no glob support for --test).
// Every test file names its kind (tests/testKinds.ts); a file that names none fails every run, loudly.
// Usage: tsx tests/run.ts [--tier fast|e2e|ui|chaos|all]... [--list] [-- <path or substring> ...]
//   npm test [-- <filter>]          the fast tier: unit, contract and int files
//   npm run test:e2e | test:ui | test:chaos
//   npm run test:all                every tier in turn; fails when any tier fails
// A filter that is a test file's exact path runs that file whatever its tier; other filters select within the tiers.
// After renaming test files, `tsx tests/fixTestReferences.ts` rewrites references to their old names.
// TEST_CONCURRENCY=<n> overrides the files run at once (tests/testKinds.ts TIER_CONCURRENCY: 2, the chaos tier 1).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIER_CONCURRENCY, TIER_ORDER, TIER_SCRIPT, TIERS, isTestFile, kindCounts, planRun, type Tier } from './testKinds.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const skipped = new Set(['node_modules', 'data', 'dist', '.git', '.tmp', '.scratch']);

function findTests(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) findTests(full, out);
    else if (isTestFile(entry.name)) out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}

function parseArgs(argv: readonly string[]): { tiers: Tier[]; list: boolean; filters: string[] } {
  const tiers: Tier[] = [];
  const filters: string[] = [];
  let list = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--list') list = true;
    else if (arg === '--tier') {
      const tier = argv[(i += 1)];
      if (tier === 'all') tiers.push(...TIER_ORDER);
      else if (tier !== undefined && tier in TIERS) tiers.push(tier as Tier);
      else fail(`--tier takes one of ${[...TIER_ORDER, 'all'].join(', ')} (got ${tier ?? 'nothing'})`);
    } else if (arg !== '--') filters.push(arg);
  }
  return { tiers: tiers.length > 0 ? [...new Set(tiers)] : ['fast'], list, filters };
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const { tiers, list, filters } = parseArgs(process.argv.slice(2));
const all = findTests(root, []);

if (list) {
  const { counts, unkinded } = kindCounts(all);
  for (const tier of TIER_ORDER) {
    const kinds = TIERS[tier].map((kind) => `${counts[kind]} ${kind}`).join(', ');
    console.log(`${TIER_SCRIPT[tier].padEnd(20)} ${kinds}`);
  }
  if (unkinded.length > 0) fail(`no kind, run by no tier (${unkinded.length}):\n${unkinded.map((file) => `  ${file}`).join('\n')}`);
  process.exit(0);
}

const plan = planRun(all, tiers, filters);
if (!plan.ok) fail(plan.error);

const failed: Tier[] = [];
for (const { tier, files } of plan.runs) {
  if (plan.runs.length > 1) console.log(`\n# ${TIER_SCRIPT[tier]}: ${files.length} file(s)\n`);
  const concurrency = process.env.TEST_CONCURRENCY ?? String(TIER_CONCURRENCY[tier]);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, '--test-timeout=600000', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'test' } },
  );
  if (result.status !== 0) failed.push(tier);
}
if (plan.runs.length > 1) {
  console.log(`\n# ${failed.length === 0 ? 'every tier passed' : `failed: ${failed.map((tier) => TIER_SCRIPT[tier]).join(', ')}`}`);
}
process.exit(failed.length === 0 ? 0 : 1);
