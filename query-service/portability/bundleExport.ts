import type { ServerResponse } from 'node:http';
import { assertCanRead, projectTarget, resolveRevision, tableInScope } from '../../contracts/index.ts';
import type { JsonObject, Principal, SystemState } from '../../contracts/index.ts';
import { rowReadonlyOf } from '../readers/rowReader.ts';
import { revisionScopeOf } from '../readers/revisionScope.ts';
import type { TableVersion } from '../readers/schemaReader.ts';
import type { TableModels } from '../readers/tableModels.ts';
import { CONTENT_TYPES, writeChunk } from './tableExport.ts';
import type { TableRows } from './tableRows.ts';

export const BUNDLE_FORMAT = 'strata-bundle';
export const BUNDLE_VERSION = 1;

/** The first line of a bundle (portability.md §3). */
export type BundleHeader = {
  readonly format: typeof BUNDLE_FORMAT;
  readonly version: typeof BUNDLE_VERSION;
  readonly sourceRevisionId: string;
  readonly exportedAt: string;
  readonly tables: readonly { readonly id: string; readonly schema: JsonObject }[];
  readonly partial?: true;
};

/**
 * Tables ordered so that each comes after the tables its foreign keys reference; among the tables ready at a step
 * the smallest id goes first, and a cycle is broken by taking the smallest id left.
 */
export function foreignKeyOrder<T extends { readonly id: string }>(tables: readonly T[], referencesOf: (table: T) => readonly string[]): T[] {
  const byId = new Map(tables.map((table) => [table.id, table]));
  const pending = new Map(tables.map((table) => [table.id, new Set(referencesOf(table).filter((id) => id !== table.id && byId.has(id)))]));
  const ordered: T[] = [];
  while (pending.size > 0) {
    const ids = [...pending.keys()].sort();
    const next = ids.find((id) => pending.get(id)?.size === 0) ?? (ids[0] as string);
    pending.delete(next);
    for (const waiting of pending.values()) waiting.delete(next);
    ordered.push(byId.get(next) as T);
  }
  return ordered;
}

/**
 * Streams a revision as a bundle (portability.md §3): the header, then each table's rows by id, tables in header
 * order. A key scoped to some tables gets only those and `"partial": true`.
 */
export async function streamBundleExport(
  res: ServerResponse,
  deps: { readonly rows: TableRows; readonly models: TableModels; readonly now: () => Date },
  state: SystemState,
  principal: Principal,
  revisionId: string,
): Promise<void> {
  const { project, revision } = resolveRevision(state, principal, revisionId);
  assertCanRead(state, principal, 'Table', projectTarget(project));
  assertCanRead(state, principal, 'Row', projectTarget(project));
  const scope = revisionScopeOf(state, revision);
  const all = await deps.rows.schemas.allTables(scope);
  const visible = all.filter((table) => tableInScope(principal, table.tableId));
  const entries = visible.map((version) => ({ id: version.tableId, version }));
  const ordered = foreignKeyOrder(entries, (entry) => deps.models(entry.version.schema).model.foreignKeys.map((fk) => fk.tableId));
  const header: BundleHeader = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    sourceRevisionId: revision.id,
    exportedAt: deps.now().toISOString(),
    tables: ordered.map((entry) => ({ id: entry.id, schema: entry.version.schema })),
    ...(visible.length < all.length ? { partial: true as const } : {}),
  };
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES.jsonl);
  res.setHeader('Content-Disposition', `attachment; filename="${revision.id}.bundle.jsonl"`);
  res.setHeader('Cache-Control', 'no-store');
  try {
    await writeChunk(res, `${JSON.stringify(header)}\n`);
    for (const { version } of ordered) await streamTableRows(res, deps, scope, version);
  } catch (err) {
    res.destroy(err instanceof Error ? err : undefined);
    return;
  }
  res.end();
}

async function streamTableRows(
  res: ServerResponse,
  deps: { readonly rows: TableRows; readonly models: TableModels },
  scope: ReturnType<typeof revisionScopeOf>,
  version: TableVersion,
): Promise<void> {
  const context = { scope, version, compiled: deps.models(version.schema), readonly: await rowReadonlyOf(deps.rows.schemas, scope, version) };
  const table = JSON.stringify(version.tableId);
  for await (const page of deps.rows.pages(context)) {
    await writeChunk(res, page.map((row) => `{"table":${table},"id":${JSON.stringify(row.id)},"data":${JSON.stringify(row.data)}}\n`).join(''));
  }
}
