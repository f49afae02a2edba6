import type { UniqueValue } from '../domain/rows/uniqueClashes.ts';

/** Values asked of one `x-unique` path of one table: value key (headValueIndexes.ts `valueKey`) -> value. */
export type ValueMisses = { readonly dataPath: readonly string[]; readonly values: Map<string, UniqueValue> };

/**
 * What a decision asked of a branch's content that was not gathered yet (docs/reference/versioned-storage.md §2):
 * row ids per table, tables whose every row (HEAD side) or every draft change (draft side) it iterated, and the
 * holders of unique values (tableKey -> path key `JSON.stringify(dataPath)` -> values).
 */
export type FactMisses = {
  readonly rows: Map<string, Set<string>>;
  readonly fullHead: Set<string>;
  readonly fullDraft: Set<string>;
  readonly values: Map<string, Map<string, ValueMisses>>;
};

export function createFactMisses(): FactMisses {
  return { rows: new Map(), fullHead: new Set(), fullDraft: new Set(), values: new Map() };
}

export function hasMisses(misses: FactMisses): boolean {
  return misses.rows.size > 0 || misses.fullHead.size > 0 || misses.fullDraft.size > 0 || misses.values.size > 0;
}

export function clearMisses(misses: FactMisses): void {
  misses.rows.clear();
  misses.fullHead.clear();
  misses.fullDraft.clear();
  misses.values.clear();
}

/** Records that a decision asked which rows of `tableKey` hold `value` at `dataPath`. */
export function addValueMiss(misses: FactMisses, tableKey: string, dataPath: readonly string[], key: string, value: UniqueValue): void {
  let paths = misses.values.get(tableKey);
  if (paths === undefined) {
    paths = new Map();
    misses.values.set(tableKey, paths);
  }
  const pathKey = JSON.stringify(dataPath);
  let entry = paths.get(pathKey);
  if (entry === undefined) {
    entry = { dataPath, values: new Map() };
    paths.set(pathKey, entry);
  }
  entry.values.set(key, value);
}

/**
 * Holders of unique values gathered from the decision store (tableKey + NUL + path key -> value key -> row ids
 * holding the value in HEAD or in the draft's changes as the store had them). The rows themselves are in the
 * FactRows; folds since then are the FactRows' `written` keys.
 */
export type GatheredValues = Map<string, Map<string, readonly string[]>>;

export const gatheredValuesKey = (tableKey: string, dataPath: readonly string[]): string => `${tableKey}\u0000${JSON.stringify(dataPath)}`;

/**
 * The rows of one side of a table (HEAD rows, or the draft's changes against HEAD) holding only the gathered ones.
 * It answers like the complete map for every key it knows (present or absent); a read of any other key answers
 * "absent" and records a miss, and so does iterating before the side is complete. A decision that recorded misses is
 * thrown away and taken again once they are gathered (a decision is pure, so only the facts change). `size` of the
 * HEAD side is the table's row count, known without its rows. Writes (folding decided events) make keys known.
 */
export class FactRows<V> extends Map<string, V> {
  readonly tableKey: string;
  readonly side: 'head' | 'draft';
  readonly misses: FactMisses;
  /** HEAD side: the table's row count. */
  readonly total: number;
  complete = false;
  readonly known = new Set<string>();
  /** Keys set or deleted by folds (not gathered): rows whose values the store does not know yet. */
  readonly written = new Set<string>();

  constructor(tableKey: string, side: 'head' | 'draft', misses: FactMisses, total = 0) {
    super();
    this.tableKey = tableKey;
    this.side = side;
    this.misses = misses;
    this.total = total;
  }

  private knows(key: string): boolean {
    if (this.complete || this.known.has(key)) return true;
    let ids = this.misses.rows.get(this.tableKey);
    if (ids === undefined) {
      ids = new Set();
      this.misses.rows.set(this.tableKey, ids);
    }
    ids.add(key);
    return false;
  }

  private iterating(): void {
    if (!this.complete) (this.side === 'head' ? this.misses.fullHead : this.misses.fullDraft).add(this.tableKey);
  }

  override get(key: string): V | undefined {
    return this.knows(key) ? super.get(key) : undefined;
  }

  override has(key: string): boolean {
    return this.knows(key) ? super.has(key) : false;
  }

  override set(key: string, value: V): this {
    this.known.add(key);
    this.written.add(key);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.known.add(key);
    this.written.add(key);
    return super.delete(key);
  }

  override get size(): number {
    if (this.side === 'head' && !this.complete) return this.total;
    this.iterating();
    return super.size;
  }

  /** Records a gathered fact (`undefined`: absent) unless the key is known already (a fold may have changed it). */
  absorb(key: string, value: V | undefined): void {
    if (this.complete || this.known.has(key)) return;
    this.known.add(key);
    if (value !== undefined) super.set(key, value);
  }

  /** Every key is known from now on (the side was gathered whole). */
  markComplete(): void {
    this.complete = true;
  }

  override entries(): MapIterator<[string, V]> {
    this.iterating();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.iterating();
    return super.keys();
  }

  override values(): MapIterator<V> {
    this.iterating();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    this.iterating();
    super.forEach(callback, thisArg);
  }
}
