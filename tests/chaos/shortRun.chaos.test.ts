// The short chaos run of `npm test` (issue 19): the whole distributed shape for about 90 seconds of modest mixed
// load with faults, and every invariant holds. CHAOS_SEED replays another seed; `npm run chaos` runs longer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_OPTIONS, runChaos } from './runChaos.ts';

const seed = Number(process.env.CHAOS_SEED ?? 19);

test(`chaos: mixed load under faults loses nothing and every invariant holds (seed ${seed})`, { timeout: 600_000 }, async () => {
  const report = await runChaos({ ...DEFAULT_OPTIONS, durationMs: 90_000, seed, maxFaults: 8, faultGapMs: [3000, 8000], pauseMs: 100 });
  const detail = `${report.summary}\n${report.violations.map((v) => `${v.invariant}: ${v.detail}`).join('\n')}`;
  assert.deepEqual(report.violations, [], detail);
  assert.ok(report.ok);
  // The checks ran: something was written, faulted and checked, not silently skipped.
  const c = report.counts;
  assert.ok(report.faults.total >= 2, `${report.faults.total} faults`);
  assert.ok((c['rows:acknowledged'] ?? 0) >= 20, detail);
  for (const check of [
    'checks:read-your-writes',
    'checks:rows-in-log',
    'checks:tables',
    'checks:key-accepted-on-replica',
    'checks:revoked-key-refused-on-replica',
    'refresh:rotations',
    'branches:deleted',
  ]) {
    assert.ok((c[check] ?? 0) > 0, `${check} was never checked: ${JSON.stringify(c)}`);
  }
  assert.equal(report.projections.length, 6);
  for (const p of report.projections) assert.equal(p.live, p.rebuilt, p.name);
  assert.ok(report.rows.rowsChecked! >= (c['rows:acknowledged'] ?? 0) / 2);
});
