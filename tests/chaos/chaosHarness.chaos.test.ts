// The harness's own test: a deliberately broken deployment must be caught. Nothing in the product is switched:
// the views are broken from the outside, directly in the SQLite file, after the run converged — one acknowledged
// row is deleted and another one's value is changed, as a projector that skipped or misapplied an event would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { OPEN_SEQ } from '../../contracts/index.ts';
import { versionFilePath } from '../../projection-worker/adapters/sqlite/sqliteViewFiles.ts';
import { DEFAULT_OPTIONS, runChaos } from './runChaos.ts';

function breakRowsView(dataDir: string): { deleted: string; changed: string } {
  const views = join(dataDir, 'views.db');
  const meta = new Database(views, { readonly: true });
  const { version } = meta.prepare("SELECT version FROM strata_view_versions WHERE name = 'rows' AND active = 1").get() as { version: number };
  meta.close();
  // The version's own file (projection-worker/adapters/sqlite/sqliteViewFiles.ts).
  const db = new Database(versionFilePath(views, 'rows', version) ?? views);
  try {
    db.pragma('busy_timeout = 10000');
    const table = `"v_rows_${version}_rows"`;
    // Branches created from master hold copies of its rows under their own branchId: break two rows of one branch,
    // master's (the branch with the most of them), so that both breaks land in revisions the harness checks.
    const { branchId } = db
      .prepare(`SELECT branchId, COUNT(*) AS n FROM ${table} WHERE rowId LIKE 'master-%' AND toSeq = ? GROUP BY branchId ORDER BY n DESC LIMIT 1`)
      .get(OPEN_SEQ) as { branchId: string };
    const live = db
      .prepare(`SELECT rowid AS k, rowId FROM ${table} WHERE branchId = ? AND rowId LIKE 'master-%' AND toSeq = ? ORDER BY rowId LIMIT 2`)
      .all(branchId, OPEN_SEQ) as { k: number; rowId: string }[];
    assert.equal(live.length, 2, 'the run wrote rows on master');
    db.prepare(`DELETE FROM ${table} WHERE rowid = ?`).run(live[0]!.k);
    db.prepare(`UPDATE ${table} SET data = json_set(data, '$.n', -1) WHERE rowid = ?`).run(live[1]!.k);
    return { deleted: live[0]!.rowId, changed: live[1]!.rowId };
  } finally {
    db.close();
  }
}

test('the harness catches a view that lost a row and a view that holds a wrong value', { timeout: 600_000 }, async () => {
  let broken: { deleted: string; changed: string } | null = null;
  const report = await runChaos({
    ...DEFAULT_OPTIONS,
    durationMs: 40_000,
    seed: 7,
    maxFaults: 1,
    pauseMs: 100,
    beforeChecks: async (cluster) => {
      broken = breakRowsView(cluster.dataDir);
    },
  });
  assert.ok(broken);
  assert.equal(report.ok, false);
  const violated = new Set(report.violations.map((v) => v.invariant));
  assert.ok(violated.has('acknowledged-writes-in-views'), report.summary);
  assert.ok(violated.has('rows-hold-the-last-acknowledged-value'), report.summary);
  assert.ok(violated.has('views-equal-a-fresh-rebuild'), report.summary);
  const { deleted, changed } = broken as { deleted: string; changed: string };
  assert.ok(
    report.violations.some((v) => v.detail.includes(deleted)),
    `${deleted} is named`,
  );
  assert.ok(
    report.violations.some((v) => v.detail.includes(changed)),
    `${changed} is named`,
  );
  assert.ok((report.rows.lost ?? 0) >= 1 && (report.rows.wrongValue ?? 0) >= 1, report.summary);
  assert.match(report.summary, /seed 7/);
  const rows = report.projections.find((p) => p.name === 'rows');
  assert.notEqual(rows?.live, rows?.rebuilt);
});
