// What one branch must contain, from the answers the workload received. A write that got no answer (or a 5xx) may
// or may not have happened: its row is `maybe` present and may hold any of the values written to it.

export type ExpectedRow = { readonly values: Set<number>; maybe: boolean };
export type ExpectedRows = Map<string, ExpectedRow>;
/** Table id → property names of a schema-change table. */
export type ExpectedTables = Map<string, Set<string>>;

export type BranchModel = {
  readonly name: string;
  draftId: string;
  headId: string;
  draft: ExpectedRows;
  head: ExpectedRows;
  draftTables: ExpectedTables;
  headTables: ExpectedTables;
  /** Whether the draft may differ from HEAD (revert is only tried then, so its outcome can be told). */
  touched: boolean;
  /** Highest position acknowledged for this branch: reads with it must see every acknowledged write. */
  position: string;
};

export function cloneRows(rows: ExpectedRows): ExpectedRows {
  return new Map([...rows].map(([id, row]) => [id, { values: new Set(row.values), maybe: row.maybe }]));
}

export function cloneTables(tables: ExpectedTables): ExpectedTables {
  return new Map([...tables].map(([id, props]) => [id, new Set(props)]));
}

/** Records a write of `value` to `rowId`; `known` false when its outcome is unknown. */
export function expectWrite(rows: ExpectedRows, rowId: string, value: number, known: boolean): void {
  const current = rows.get(rowId);
  if (known) rows.set(rowId, { values: new Set([value]), maybe: false });
  else if (current) current.values.add(value);
  else rows.set(rowId, { values: new Set([value]), maybe: true });
}

export const maxPosition = (a: string, b: string | null): string => (b !== null && b > a ? b : a);

export type RowsDiff = { lost: string[]; phantom: string[]; wrongValue: string[]; duplicated: string[]; matched: number };

/** Compares the rows a view listed with the expected rows. */
export function diffRows(expected: ExpectedRows, listed: readonly { id: string; n: unknown }[]): RowsDiff {
  const diff: RowsDiff = { lost: [], phantom: [], wrongValue: [], duplicated: [], matched: 0 };
  const seen = new Set<string>();
  for (const row of listed) {
    if (seen.has(row.id)) diff.duplicated.push(row.id);
    seen.add(row.id);
    const want = expected.get(row.id);
    if (!want) diff.phantom.push(row.id);
    else if (typeof row.n !== 'number' || !want.values.has(row.n)) diff.wrongValue.push(`${row.id}=${String(row.n)}`);
    else diff.matched++;
  }
  for (const [id, row] of expected) if (!row.maybe && !seen.has(id)) diff.lost.push(id);
  return diff;
}
