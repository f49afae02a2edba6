import { canonicalJson } from '../../contracts/index.ts';
import type { DraftOperation, JsonObject } from '../../contracts/index.ts';
import type { RevisionScope } from '../readers/revisionScope.ts';
import { rowReadonlyOf } from '../readers/rowReader.ts';
import type { TableVersion } from '../readers/schemaReader.ts';
import type { ParsedBundle } from './bundleParse.ts';
import type { TableRows } from './tableRows.ts';

/** What a bundle does to the draft's tables (portability.md §3), before any of its rows. */
export type BundlePlan = {
  /** The draft's tables before the import, by id. */
  readonly current: ReadonlyMap<string, TableVersion>;
  /** CreateTable and UpdateTable (schemas replaced a top-level property node at a time), in the header's order. */
  readonly tableOps: DraftOperation[];
  /** `mode=replace`: the bundle's tables (their rows become exactly the bundle's). */
  readonly replacedTables: readonly string[];
  /** `mode=replace`: the draft's tables the bundle lacks (removed). */
  readonly removedTables: readonly TableVersion[];
};

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);
const escapePointer = (name: string): string => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON Patch turning `current` into `target` one top-level property node at a time (whole nodes replaced). */
export function schemaPatches(current: JsonObject, target: JsonObject): unknown[] {
  const props = (schema: JsonObject): Record<string, unknown> => (isObject(schema.properties) ? schema.properties : {});
  const before = props(current);
  const after = props(target);
  const patches: unknown[] = [];
  for (const name of Object.keys(before)) if (!Object.hasOwn(after, name)) patches.push({ op: 'remove', path: `/properties/${escapePointer(name)}` });
  for (const [name, node] of Object.entries(after)) {
    if (!Object.hasOwn(before, name)) patches.push({ op: 'add', path: `/properties/${escapePointer(name)}`, value: node });
    else if (canonicalJson(before[name]) !== canonicalJson(node))
      patches.push({ op: 'replace', path: `/properties/${escapePointer(name)}`, value: node });
  }
  return patches;
}

export async function bundlePlanOf(rows: TableRows, scope: RevisionScope, bundle: ParsedBundle, mode: 'replace' | 'merge'): Promise<BundlePlan> {
  const current = new Map((await rows.schemas.allTables(scope)).map((version) => [version.tableId, version]));
  const tableOps: DraftOperation[] = [];
  for (const table of bundle.tables) {
    const existing = current.get(table.id);
    if (existing === undefined) tableOps.push({ type: 'CreateTable', tableId: table.id, schema: table.schema });
    else {
      const patches = schemaPatches(existing.schema, table.schema);
      if (patches.length > 0) tableOps.push({ type: 'UpdateTable', tableId: table.id, patches });
    }
  }
  const kept = new Set(bundle.tables.map((table) => table.id));
  return {
    current,
    tableOps,
    replacedTables: mode === 'replace' ? [...kept] : [],
    removedTables: mode === 'replace' ? [...current.values()].filter((version) => !kept.has(version.tableId)) : [],
  };
}

/**
 * `mode=replace`: the ids of each existing bundle table's rows the bundle lacks, or null as soon as there are more
 * than `limit` (the import is then staged, and removes them chunk by chunk).
 */
export async function absentRowsOf(rows: TableRows, scope: RevisionScope, bundle: ParsedBundle, plan: BundlePlan, limit: number) {
  const absent = new Map<string, string[]>();
  let total = 0;
  for (const tableId of plan.replacedTables) {
    const version = plan.current.get(tableId);
    const ids = bundle.rows.get(tableId)?.ids;
    if (version === undefined || ids === undefined) continue;
    const table = { scope, version, compiled: rows.models(version.schema), readonly: await rowReadonlyOf(rows.schemas, scope, version) };
    const list: string[] = [];
    for await (const page of rows.pages(table)) {
      for (const row of page) if (!ids.has(row.id)) list.push(row.id);
      if (total + list.length > limit) return null;
    }
    total += list.length;
    if (list.length > 0) absent.set(tableId, list);
  }
  return absent;
}
