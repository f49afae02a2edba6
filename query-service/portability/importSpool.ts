import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ImportRow } from './importRows.ts';

/**
 * The rows of a staged import written to a temporary file as they are sent, so that a second pass can send them
 * again without holding them in memory (stagedTableImport.ts: an `onError=skip` import into a table with unique
 * fields whose check across the file found clashes re-stages its rows without them). Deleted by `close`.
 */
export async function createImportSpool() {
  const dir = await mkdtemp(join(tmpdir(), 'strata-import-'));
  const path = join(dir, 'rows.jsonl');
  const file = await open(path, 'w');
  let closed = false;
  return {
    /** Appends the rows (one JSON line each). */
    async write(rows: readonly ImportRow[]): Promise<void> {
      if (rows.length > 0) await file.write(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    },
    /** The rows written, in order (the file is complete once the first pass is done). */
    async *rows(): AsyncGenerator<ImportRow> {
      const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
      for await (const line of lines) if (line !== '') yield JSON.parse(line) as ImportRow;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await file.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type ImportSpool = Awaited<ReturnType<typeof createImportSpool>>;
