import type { ViewDoc } from '../ports/viewStore.ts';

/** Fields of a table version that a partial version leaves null (docs/reference/versioned-storage.md §1). */
export const TABLE_CONTENT_FIELDS = ['tableId', 'schema', 'count', 'createdAt', 'updatedAt'] as const;

/**
 * The tables a revision sees, from the `schemas.tables` documents valid in each of its layers (`layers[0]`: the
 * revision's own branch at its sequence, then the branch it was created from at the source sequence, ... down to the
 * root branch). Per table (`tableKey`) the topmost document decides: a tombstone hides the table; a partial version
 * (a row event in a branch that had no version of its own: only `count` set) takes each null content field from the
 * next layer down that has a document for the table. The result keeps the topmost document's version fields
 * (`branchId`, `fromSeq`, `toSeq`: `readonly` depends on them), in the order tables are first met from the top. A
 * table whose fields cannot be completed (a tombstone or nothing below a partial version) is not visible. Pure: the
 * readers and the write side resolve tables alike.
 */
export function resolveTableLayers(layers: readonly (readonly ViewDoc[])[]): ViewDoc[] {
  const below = layers.map((docs) => new Map(docs.map((doc) => [doc.tableKey as string, doc])));
  const out: ViewDoc[] = [];
  const seen = new Set<string>();
  layers.forEach((docs, depth) => {
    for (const top of docs) {
      const tableKey = top.tableKey as string;
      if (seen.has(tableKey)) continue;
      seen.add(tableKey);
      const resolved = resolveTable(top, below, depth);
      if (resolved !== null) out.push(resolved);
    }
  });
  return out;
}

function resolveTable(top: ViewDoc, layers: readonly ReadonlyMap<string, ViewDoc>[], depth: number): ViewDoc | null {
  if (top.tombstone === true) return null;
  const tableKey = top.tableKey as string;
  const doc: Record<string, unknown> = { ...top };
  let missing = TABLE_CONTENT_FIELDS.filter((field) => doc[field] === null || doc[field] === undefined);
  for (let lower = depth + 1; missing.length > 0 && lower < layers.length; lower++) {
    const next = layers[lower]?.get(tableKey);
    if (next === undefined) continue;
    if (next.tombstone === true) return null;
    for (const field of missing) doc[field] = next[field] ?? null;
    missing = missing.filter((field) => doc[field] === null);
  }
  return missing.length === 0 ? doc : null;
}
