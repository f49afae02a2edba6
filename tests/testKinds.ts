// Test kinds and tiers: every test file names its kind (`name.<kind>.test.ts`) and each tier runs some kinds.
// Pure planning for tests/run.ts (no I/O), so the rules have a unit test of their own (testKinds.unit.test.ts).

/** The kinds a test file may carry in its name, each with what makes a test that kind. */
export const TEST_KINDS = {
  unit: 'pure logic, no I/O beyond reading fixtures',
  contract: 'a port contract suite run against one adapter',
  int: 'in-process integration with real stores (SQLite, a Redis or jongodb child, loopback servers of one component)',
  e2e: 'the assembled app on a port, `strata` processes or several processes talking HTTP',
  ui: 'Chromium driving the Admin UI or GraphiQL',
  chaos: 'the chaos harness: the distributed shape under faults',
} as const;

export type TestKind = keyof typeof TEST_KINDS;

/** `npm test` is the fast tier; the others have a script each, and `test:all` runs them all, in this order. */
export const TIERS = {
  fast: ['unit', 'contract', 'int'],
  e2e: ['e2e'],
  ui: ['ui'],
  chaos: ['chaos'],
} as const satisfies Record<string, readonly TestKind[]>;

export type Tier = keyof typeof TIERS;

export const TIER_ORDER: readonly Tier[] = ['fast', 'e2e', 'ui', 'chaos'];

/** The npm script that runs a tier. */
export const TIER_SCRIPT: Readonly<Record<Tier, string>> = {
  fast: 'npm test',
  e2e: 'npm run test:e2e',
  ui: 'npm run test:ui',
  chaos: 'npm run test:chaos',
};

/** Node's test runner spawns one process per file, two at a time (this machine's cores); the chaos run's timings want the machine to itself. */
export const TIER_CONCURRENCY: Readonly<Record<Tier, number>> = { fast: 2, e2e: 2, ui: 2, chaos: 1 };

const TEST_FILE = /\.test\.tsx?$/;
const KIND = /\.(unit|contract|int|e2e|ui|chaos)\.test\.tsx?$/;

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

/** The kind a test file's name carries, or null when it carries none (`foo.test.ts`, `foo.slow.test.ts`). */
export function kindOf(path: string): TestKind | null {
  const match = KIND.exec(path);
  return match ? (match[1] as TestKind) : null;
}

export function tierOf(kind: TestKind): Tier {
  for (const tier of TIER_ORDER) if ((TIERS[tier] as readonly TestKind[]).includes(kind)) return tier;
  throw new Error(`no tier runs ${kind} tests`);
}

export type Plan =
  | { readonly ok: true; readonly runs: readonly { readonly tier: Tier; readonly files: readonly string[] }[] }
  | { readonly ok: false; readonly error: string };

/**
 * What to run for `tiers` (in TIER_ORDER) given every test file of the repository and the command line's filters.
 * A test file without a kind fails the plan whatever was asked: it would otherwise drop out of every tier unseen.
 * A filter that is exactly a test file's path runs that file in its own tier even when that tier was not asked for
 * (`npm test -- tests/e2e/serve.e2e.test.ts` does what it says); any other filter is a substring that selects within
 * the asked tiers, and when it selects nothing there the error names the tiers that hold matching files.
 */
export function planRun(allFiles: readonly string[], tiers: readonly Tier[], filters: readonly string[]): Plan {
  const files = allFiles.filter(isTestFile);
  const unkinded = files.filter((file) => kindOf(file) === null).sort();
  if (unkinded.length > 0) {
    return {
      ok: false,
      error:
        `${unkinded.length} test file(s) carry no kind in their name, so no tier would run them:\n` +
        unkinded.map((file) => `  ${file}\n`).join('') +
        `Rename each to <name>.<kind>.test.ts with a kind of ${Object.keys(TEST_KINDS).join(', ')} (README, "Tests").`,
    };
  }
  const exact = new Set(filters.filter((filter) => files.includes(filter)));
  const substrings = filters.filter((filter) => !exact.has(filter));
  const chosen = (file: string, asked: boolean): boolean =>
    exact.has(file) || (asked && (filters.length === 0 || substrings.some((filter) => file.includes(filter))));
  const runs: { tier: Tier; files: string[] }[] = [];
  for (const tier of TIER_ORDER) {
    const asked = tiers.includes(tier);
    const selected = files.filter((file) => tierOf(kindOf(file)!) === tier && chosen(file, asked)).sort();
    if (selected.length > 0) runs.push({ tier, files: selected });
  }
  if (runs.length > 0) return { ok: true, runs };
  const elsewhere = TIER_ORDER.filter(
    (tier) => !tiers.includes(tier) && files.some((file) => tierOf(kindOf(file)!) === tier && substrings.some((filter) => file.includes(filter))),
  );
  const hint = elsewhere.length > 0 ? ` (files of ${elsewhere.map((tier) => `\`${TIER_SCRIPT[tier]}\``).join(', ')} match)` : '';
  return { ok: false, error: `no ${tiers.join(' + ')} test files match ${filters.join(' ')}${hint}` };
}

/** Counts of files per kind, and the unkinded files, for `tsx tests/run.ts --list`. */
export function kindCounts(allFiles: readonly string[]): { readonly counts: Record<TestKind, number>; readonly unkinded: readonly string[] } {
  const counts = Object.fromEntries(Object.keys(TEST_KINDS).map((kind) => [kind, 0])) as Record<TestKind, number>;
  const unkinded: string[] = [];
  for (const file of allFiles.filter(isTestFile)) {
    const kind = kindOf(file);
    if (kind === null) unkinded.push(file);
    else counts[kind] += 1;
  }
  return { counts, unkinded: unkinded.sort() };
}
