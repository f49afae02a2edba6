import { createPatchChains, fieldsEqual, patchSegments, streamEntityId } from '../../contracts/index.ts';
import type { Filter, PatchEntry, PatchSegment, RevisionRecord, SideTableChange, SystemState, ViewStore } from '../../contracts/index.ts';

const SCHEMAS = 'schemas';
const SCHEMA_PATCHES = 'schema_patches';

/** The `schema_patches` documents (contracts/views/viewSpecs.ts) of one stretch of a branch stream, in log order. */
async function entriesOf(views: Pick<ViewStore, 'find'>, segment: PatchSegment): Promise<PatchEntry[]> {
  const filters: Filter[] = [fieldsEqual({ branchId: streamEntityId(segment.streamId) })];
  filters.push({ kind: 'compare', ref: { field: 'revision' }, op: 'gte', value: segment.fromRevision });
  if (segment.toRevision !== null) filters.push({ kind: 'compare', ref: { field: 'revision' }, op: 'lt', value: segment.toRevision });
  const docs = await views.find(SCHEMAS, SCHEMA_PATCHES, {
    filter: { kind: 'and', filters },
    orderBy: [{ ref: { field: 'revision' }, direction: 'asc' }],
  });
  return docs.map((doc) => ({
    draftSeq: doc.draftSeq as number,
    tableKey: (doc.tableKey as string | null) ?? null,
    patches: (doc.patches as PatchEntry['patches']) ?? null,
  }));
}

/**
 * One side's table changes with the updateTable patches it applied since the base (merge.md §2.1), read from the
 * `schemas` projection's `schema_patches` between the base and the side on the branch streams (`patchSegments`),
 * for the base tables whose schema it changed. The caller has awaited the content views up to the draft it read,
 * so the patches are as fresh as the diffs. Cost: the side's schema changes since the base, read only when it
 * changed a schema. A table whose chain cannot be read or does not explain its schema change keeps no `patches`:
 * the merge recomputes them from the schemas.
 */
export async function withSidePatches(
  views: Pick<ViewStore, 'find'>,
  state: SystemState,
  args: { readonly base: RevisionRecord; readonly side: RevisionRecord; readonly draftEnd: number | 'no_stream' | null },
  tables: readonly (SideTableChange & { readonly tableKey: string | null })[],
): Promise<SideTableChange[]> {
  const strip = ({ tableKey: _, ...table }: SideTableChange & { readonly tableKey: string | null }): SideTableChange => table;
  const changed = tables.filter((t) => t.schemaChanged && t.tableKey !== null && t.baseSchema !== null && t.schema !== null);
  const segments = changed.length === 0 ? null : patchSegments(state, args.base, args.side, args.draftEnd);
  if (segments === null) return tables.map(strip);
  const chains = createPatchChains();
  for (const segment of segments) {
    for (const entry of await entriesOf(views, segment)) chains.add(segment, entry);
  }
  return tables.map((table) => {
    if (!changed.includes(table)) return strip(table);
    const patches = chains.chainOf(table.tableKey as string, table.baseSchema as Record<string, unknown>, table.schema as Record<string, unknown>);
    return patches === null ? strip(table) : { ...strip(table), patches };
  });
}
