// The runner's classification (tests/testKinds.ts): each kind lands in exactly one tier, filters select within the
// asked tiers, and a test file without a kind fails every run instead of dropping out of every tier.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_KINDS, TIER_ORDER, TIERS, kindCounts, kindOf, planRun, tierOf, type Plan } from './testKinds.ts';

const files = [
  'command-service/domain/rowValidator.unit.test.ts',
  'tests/contract/viewStore.contract.test.ts',
  'projection-worker/projectors/rowsProjector.int.test.ts',
  'tests/e2e/serve.e2e.test.ts',
  'tests/e2e/generatedRest.e2e.test.ts',
  'tests/e2e/adminUiTeams.ui.test.ts',
  'tests/chaos/chaos.chaos.test.ts',
  'admin-ui/src/lib/formValue.unit.test.tsx',
  'tests/support/freePort.ts',
  'tests/contract/viewStoreContract.ts',
];

function runs(plan: Plan): Record<string, readonly string[]> {
  assert.ok(plan.ok, plan.ok ? '' : plan.error);
  return Object.fromEntries(plan.runs.map((run) => [run.tier, run.files]));
}

test('a file carries its kind just before .test.ts(x); anything else is no kind', () => {
  assert.equal(kindOf('a/b/rowValidator.unit.test.ts'), 'unit');
  assert.equal(kindOf('tests/e2e/serve.e2e.test.ts'), 'e2e');
  assert.equal(kindOf('admin-ui/x.ui.test.tsx'), 'ui');
  assert.equal(kindOf('tests/e2e/serve.test.ts'), null);
  assert.equal(kindOf('tests/e2e/serve.slow.test.ts'), null);
  assert.equal(kindOf('tests/unit/serve.test.ts'), null, 'a folder name is not a kind');
  assert.equal(kindOf('tests/e2e/unit.test.ts'), null, 'nor is a file named like one');
  assert.equal(kindOf('tests/contract/viewStoreContract.ts'), null);
});

test('every kind is run by exactly one tier, and npm test runs unit, contract and int only', () => {
  for (const kind of Object.keys(TEST_KINDS) as (keyof typeof TEST_KINDS)[]) {
    assert.equal(TIER_ORDER.filter((tier) => (TIERS[tier] as readonly string[]).includes(kind)).length, 1, kind);
    assert.ok(TIER_ORDER.includes(tierOf(kind)));
  }
  assert.deepEqual([...TIERS.fast], ['unit', 'contract', 'int']);
});

test('npm test plans the fast tier; test:all plans every tier in order', () => {
  assert.deepEqual(runs(planRun(files, ['fast'], [])), {
    fast: [
      'admin-ui/src/lib/formValue.unit.test.tsx',
      'command-service/domain/rowValidator.unit.test.ts',
      'projection-worker/projectors/rowsProjector.int.test.ts',
      'tests/contract/viewStore.contract.test.ts',
    ],
  });
  const plan = planRun(files, TIER_ORDER, []);
  assert.ok(plan.ok);
  assert.deepEqual(
    plan.runs.map((run) => run.tier),
    ['fast', 'e2e', 'ui', 'chaos'],
  );
  assert.equal(plan.runs.flatMap((run) => run.files).length, 8, 'every test file once, support files never');
});

test('one file without a kind fails every plan, filtered or not, and names the file', () => {
  const withStray = [...files, 'query-service/rows/newFeature.test.ts'];
  for (const [tiers, filters] of [
    [['fast'], []],
    [TIER_ORDER, []],
    [['e2e'], ['serve']],
    [['fast'], ['command-service/domain/rowValidator.unit.test.ts']],
  ] as const) {
    const plan = planRun(withStray, tiers, filters);
    assert.equal(plan.ok, false, `${tiers.join('+')} ${filters.join(' ')}`);
    assert.ok(!plan.ok && plan.error.includes('query-service/rows/newFeature.test.ts'), !plan.ok ? plan.error : '');
  }
  assert.deepEqual(kindCounts(withStray).unkinded, ['query-service/rows/newFeature.test.ts']);
  assert.equal(kindCounts(withStray).counts.e2e, 2);
});

test('a substring selects within the asked tiers; an exact path runs its file in its own tier', () => {
  assert.deepEqual(runs(planRun(files, ['fast'], ['rows'])), { fast: ['projection-worker/projectors/rowsProjector.int.test.ts'] });
  assert.deepEqual(runs(planRun(files, ['fast'], ['tests/e2e/serve.e2e.test.ts'])), { e2e: ['tests/e2e/serve.e2e.test.ts'] });
  assert.deepEqual(runs(planRun(files, ['e2e'], ['generated', 'serve'])), {
    e2e: ['tests/e2e/generatedRest.e2e.test.ts', 'tests/e2e/serve.e2e.test.ts'],
  });
  assert.deepEqual(runs(planRun(files, TIER_ORDER, ['adminUi'])), { ui: ['tests/e2e/adminUiTeams.ui.test.ts'] });
});

test('a substring that matches only other tiers fails and names the command that runs them', () => {
  const plan = planRun(files, ['fast'], ['adminUi']);
  assert.equal(plan.ok, false);
  assert.match(!plan.ok ? plan.error : '', /no fast test files match adminUi \(files of `npm run test:ui` match\)/);
  const none = planRun(files, ['fast'], ['nothing-like-this']);
  assert.equal(!none.ok && none.error, 'no fast test files match nothing-like-this');
});
