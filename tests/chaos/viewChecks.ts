// Invariants on the views after the run: every projection at lag 0, each branch's rows and tables as the answers
// said, and every projection's content equal to a fresh rebuild from the log (a digest per projection).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pino } from 'pino';
import { comparePositions } from '../../contracts/index.ts';
import type { EventStore, ViewDoc, ViewStore } from '../../contracts/index.ts';
import { allProjectors, createSqliteViewStore, rebuildProjection } from '../../projection-worker/index.ts';
import { diffRows, type BranchModel, type ExpectedTables } from './branchModel.ts';
import type { ChaosContext } from './context.ts';
import { readAllRows, TABLE } from './setup.ts';

export type ProjectionDigest = { readonly name: string; readonly live: string; readonly rebuilt: string; readonly documents: number };

/** Waits until every active projection's checkpoint reaches the log head; returns the time it took, or null. */
export async function awaitConvergence(views: ViewStore, log: EventStore, timeoutMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const head = await log.headPosition();
    const statuses = (await views.projectionStatuses()).filter((s) => s.active);
    if (
      statuses.length >= allProjectors.length &&
      statuses.every((s) => head === null || (s.position !== null && comparePositions(s.position, head) >= 0))
    ) {
      return Date.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return null;
}

export async function checkBranches(
  ctx: ChaosContext,
  models: readonly BranchModel[],
  refused: ReadonlySet<string>,
): Promise<Record<string, number>> {
  const totals = { rowsChecked: 0, lost: 0, duplicated: 0, phantom: 0, wrongValue: 0, refusedSeen: 0 };
  const position = (await ctx.log.headPosition()) ?? '';
  for (const model of models) {
    for (const [label, revisionId, rows, tables] of [
      ['draft', model.draftId, model.draft, model.draftTables],
      ['head', model.headId, model.head, model.headTables],
    ] as const) {
      const listed = await readAllRows(ctx, 'cmdA', revisionId, position);
      const diff = diffRows(rows, listed);
      const where = `${model.name} ${label}`;
      totals.rowsChecked += listed.length;
      totals.lost += diff.lost.length;
      totals.duplicated += diff.duplicated.length;
      totals.wrongValue += diff.wrongValue.length;
      for (const id of diff.phantom) {
        if (refused.has(id)) totals.refusedSeen++;
        else totals.phantom++;
      }
      const report = (invariant: string, ids: readonly string[]): void => {
        if (ids.length > 0) ctx.recorder.violation(invariant, `${where}: ${ids.length} (${ids.slice(0, 10).join(', ')})`);
      };
      report('acknowledged-writes-in-views', diff.lost);
      report('views-hold-each-row-once', diff.duplicated);
      report('rows-hold-the-last-acknowledged-value', diff.wrongValue);
      report(
        'refused-writes-never-appear',
        diff.phantom.filter((id) => refused.has(id)),
      );
      report(
        'no-rows-nobody-wrote',
        diff.phantom.filter((id) => !refused.has(id)),
      );
      await checkTables(ctx, where, revisionId, tables, position);
    }
  }
  return totals;
}

async function checkTables(ctx: ChaosContext, where: string, revisionId: string, expected: ExpectedTables, position: string): Promise<void> {
  const headers = { ...ctx.auth, 'x-strata-min-position': position };
  const reply = await ctx.client.call('cmdA', 'GET', `/api/revision/${revisionId}/tables?first=1000`, { headers });
  const listed = new Set<string>((reply.body?.edges ?? []).map((edge: { node: { id: string } }) => edge.node.id));
  ctx.recorder.count('checks:tables');
  if (!listed.has(TABLE)) ctx.recorder.violation('schema-changes-in-views', `${where}: table ${TABLE} missing`);
  for (const id of listed)
    if (id !== TABLE && !expected.has(id)) ctx.recorder.violation('schema-changes-in-views', `${where}: table ${id} nobody created`);
  for (const [tableId, props] of expected) {
    const unknown = props.has('?');
    if (!listed.has(tableId)) {
      if (!unknown) ctx.recorder.violation('schema-changes-in-views', `${where}: table ${tableId} missing`);
      continue;
    }
    const schema = await ctx.client.call('cmdA', 'GET', `/api/revision/${revisionId}/table/${tableId}/schema`, { headers });
    const actual = new Set(Object.keys(schema.body?.properties ?? {}));
    const known = [...props].filter((p) => p !== '?');
    const missing = known.filter((p) => !actual.has(p));
    const extra = [...actual].filter((p) => !props.has(p));
    if (missing.length > 0 || (!unknown && extra.length > 0)) {
      ctx.recorder.violation('schema-changes-in-views', `${where}: ${tableId} has ${[...actual].join(',')}, expected ${known.join(',')}`);
    }
  }
}

/** Rebuilds every projection from the log into a scratch store and compares every document of every collection. */
export async function checkRebuild(ctx: ChaosContext, views: ViewStore, scratchDir: string): Promise<ProjectionDigest[]> {
  const fresh = createSqliteViewStore({ file: join(scratchDir, `rebuilt-${Date.now()}.db`) });
  const digests: ProjectionDigest[] = [];
  try {
    for (const projector of allProjectors) {
      await rebuildProjection({ projector, eventStore: ctx.log, viewStore: fresh, log: pino({ level: 'silent' }), dropDelayMs: 0 });
      const live = createHash('sha256');
      const rebuilt = createHash('sha256');
      let documents = 0;
      for (const collection of projector.spec.collections) {
        const orderBy = collection.key.map((name) => ({ ref: { field: name }, direction: 'asc' as const }));
        const dump = (store: ViewStore): Promise<ViewDoc[]> => store.find(projector.spec.name, collection.name, { orderBy });
        const [a, b] = await Promise.all([dump(views), dump(fresh)]);
        documents += b.length;
        live.update(`${collection.name}\n${JSON.stringify(a)}\n`);
        rebuilt.update(`${collection.name}\n${JSON.stringify(b)}\n`);
        if (JSON.stringify(a) !== JSON.stringify(b)) {
          const differing = b.filter((doc, i) => JSON.stringify(doc) !== JSON.stringify(a[i])).length + Math.max(0, a.length - b.length);
          ctx.recorder.violation(
            'views-equal-a-fresh-rebuild',
            `${projector.spec.name}.${collection.name}: ${a.length} live vs ${b.length} rebuilt documents, ${differing} differ`,
          );
        }
      }
      digests.push({ name: projector.spec.name, live: live.digest('hex').slice(0, 16), rebuilt: rebuilt.digest('hex').slice(0, 16), documents });
    }
  } finally {
    await fresh.close();
  }
  return digests;
}
