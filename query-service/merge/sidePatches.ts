import { createPatchChains, patchSegments } from '../../contracts/index.ts';
import type { DomainEvent, EventStore, RevisionRecord, SideTableChange, SystemState } from '../../contracts/index.ts';

/** Events read per page of a branch stream (a page may hold an import's bulk rows event, so keep it small). */
const PAGE = 100;

export type PatchLog = Pick<EventStore, 'readStream'>;

/**
 * One side's table changes with the updateTable patches it applied since the base (merge.md §2.1), read from the
 * branch streams between the base and the side (`patchSegments`), for the base tables whose schema it changed.
 * Cost: the side's events since the base, read only when it changed a schema. A table whose chain cannot be read
 * or does not explain its schema change keeps no `patches`: the merge recomputes them from the schemas.
 */
export async function withSidePatches(
  log: PatchLog | undefined,
  state: SystemState,
  args: { readonly base: RevisionRecord; readonly side: RevisionRecord; readonly draftEnd: number | 'no_stream' | null },
  tables: readonly (SideTableChange & { readonly tableKey: string | null })[],
): Promise<SideTableChange[]> {
  const strip = ({ tableKey: _, ...table }: SideTableChange & { readonly tableKey: string | null }): SideTableChange => table;
  const changed = tables.filter((t) => t.schemaChanged && t.tableKey !== null && t.baseSchema !== null && t.schema !== null);
  const segments = log === undefined || changed.length === 0 ? null : patchSegments(state, args.base, args.side, args.draftEnd);
  if (log === undefined || segments === null) return tables.map(strip);
  const chains = createPatchChains();
  for (const segment of segments) {
    for (let from = segment.fromRevision; segment.toRevision === null || from < segment.toRevision;) {
      const maxCount = segment.toRevision === null ? PAGE : Math.min(PAGE, segment.toRevision - from);
      const page = await log.readStream(segment.streamId, { fromRevision: from, maxCount });
      for (const recorded of page) {
        if (segment.toRevision !== null && recorded.revision >= segment.toRevision) break;
        chains.add(segment, { type: recorded.type, data: recorded.data } as DomainEvent);
      }
      if (page.length < maxCount) break;
      from = (page[page.length - 1]?.revision ?? from) + 1;
    }
  }
  return tables.map((table) => {
    if (!changed.includes(table)) return strip(table);
    const patches = chains.chainOf(table.tableKey as string, table.baseSchema as Record<string, unknown>, table.schema as Record<string, unknown>);
    return patches === null ? strip(table) : { ...strip(table), patches };
  });
}
