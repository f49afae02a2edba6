import type { JsonObject } from '../../contracts/index.ts';
import { MAX_REPORTED_LINES, type ImportLineError } from './importAnswer.ts';
import type { ImportRecord } from './importRecords.ts';

/** A line that became a row to write. */
export type ImportRow = { readonly rowId: string; readonly data: JsonObject; readonly line: number };

/**
 * The invalid lines of an import: how many, and the first MAX_REPORTED_LINES by line (errors arrive out of line
 * order: a chunk's row errors after later lines' shape errors), in memory bounded whatever the count.
 */
export type LineErrors = {
  add(error: ImportLineError): void;
  /** Counts `n` more invalid lines that are not among the first reported (their errors were found elsewhere and kept there). */
  addUnlisted(n: number): void;
  readonly count: () => number;
  /** The first MAX_REPORTED_LINES errors by line, with `more` (errors of this answer not kept, e.g. a command's). */
  first(more?: readonly ImportLineError[]): ImportLineError[];
};

export function createLineErrors(): LineErrors {
  let kept: ImportLineError[] = [];
  let count = 0;
  const byLine = (a: ImportLineError, b: ImportLineError) => a.line - b.line;
  return {
    add(error) {
      count += 1;
      kept.push(error);
      if (kept.length > 4 * MAX_REPORTED_LINES) kept = kept.sort(byLine).slice(0, MAX_REPORTED_LINES);
    },
    addUnlisted(n) {
      count += n;
    },
    count: () => count,
    first: (more = []) => [...kept, ...more].sort(byLine).slice(0, MAX_REPORTED_LINES),
  };
}

/**
 * Turns an import file's records into rows: lines that are not rows and ids that repeat an earlier line are line
 * errors. Remembers each id's line (duplicates; `mode=replace` keeps the ids it saw): the one per-row memory an
 * import keeps, ids only.
 */
export function createRowCollector() {
  const firstLineOf = new Map<string, number>();
  const errors = createLineErrors();
  let processed = 0;
  return {
    errors,
    processed: () => processed,
    /** Whether a row of the file has this id. */
    has: (rowId: string) => firstLineOf.has(rowId),
    /** The line of the file's row with this id (0 when none). */
    lineOf: (rowId: string) => firstLineOf.get(rowId) ?? 0,
    /** The record as a row, or null when it is a line error. */
    add(record: ImportRecord): ImportRow | null {
      processed += 1;
      if (record.error !== undefined) {
        errors.add({ line: record.line, rowId: record.id, ...record.error });
        return null;
      }
      const earlier = firstLineOf.get(record.id);
      if (earlier !== undefined) {
        errors.add({ line: record.line, rowId: record.id, code: 'BAD_USER_INPUT', message: `row "${record.id}" already appears on line ${earlier}` });
        return null;
      }
      firstLineOf.set(record.id, record.line);
      return { rowId: record.id, data: record.data, line: record.line };
    },
  };
}

export type RowCollector = ReturnType<typeof createRowCollector>;
