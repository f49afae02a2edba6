import type { EventStore, Position, RecordedEvent } from '../../contracts/index.ts';

/** What every `strata audit …` command shares (operations.md §5, oauth.md §7): the log reader, times, output. */

const READ_BATCH = 1000;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `T` of the CLI: ISO 8601 (`2025-03-01`, `2025-03-01T09:30:00Z`) or a duration back from now (`7d`, `12h`). */
export function parseAuditTime(text: string, nowMs: number): number | null {
  const relative = /^(\d+)([smhdw])$/.exec(text);
  if (relative) return nowMs - Number(relative[1]) * (UNIT_MS[relative[2] as string] as number);
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/** Every event of `categories`, read from the log itself in batches and in log order, to the entries `toEntry` makes. */
export async function readAuditEntries<T>(
  eventStore: EventStore,
  categories: readonly string[],
  toEntry: (recorded: RecordedEvent) => T | null,
): Promise<T[]> {
  const entries: T[] = [];
  let after: Position | null = null;
  for (;;) {
    const batch = await eventStore.readAll(after, { categories, maxCount: READ_BATCH });
    if (batch.length === 0) return entries;
    for (const recorded of batch) {
      const entry = toEntry(recorded);
      if (entry !== null) entries.push(entry);
    }
    after = batch[batch.length - 1]?.position ?? after;
  }
}

/** `--json`: one JSON object per line. */
export function formatAuditJsonLines(objects: readonly unknown[]): string {
  return objects.map((object) => `${JSON.stringify(object)}\n`).join('');
}

/** The default table: one header line, columns padded to their widest value. */
export function formatAuditTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return (
    all
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
