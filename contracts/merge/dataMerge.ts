import { toJsonPointer } from '../tables/jsonPointer.ts';
import { isPlainObject, jsonDeepEqual } from '../tables/jsonValue.ts';

/** A leaf changed on both sides to different values (merge.md §2.2): its JSON Pointer and the three values. */
export type LeafConflict = { readonly path: string; readonly base: unknown; readonly ours: unknown; readonly theirs: unknown };

/** Picks the value of a conflicting leaf; `undefined` leaves the leaf absent, null from a resolution keeps ours. */
export type LeafChoice = (conflict: LeafConflict) => { readonly value: unknown } | null;

export type DataMergeResult = {
  readonly data: Record<string, unknown>;
  /** Conflicts the choice left open (their leaves keep our value). */
  readonly open: readonly LeafConflict[];
  /** Every conflicting leaf, resolved or not. */
  readonly all: readonly LeafConflict[];
};

/**
 * Three-way merge of row `data` (merge.md §2.2): objects key by key, arrays and primitives as single values. A leaf
 * changed on one side takes that side, changed on both to equal values is taken once, otherwise it is a conflict
 * resolved by `choose`. `base` undefined merges two additions (every differing leaf conflicts, base value null).
 * Keys follow `order` (the schema's `properties` order, as `propertyOrder` gives it), then our order.
 */
export function mergeData(
  base: Record<string, unknown> | undefined,
  ours: Record<string, unknown>,
  theirs: Record<string, unknown>,
  choose: LeafChoice,
  schema?: unknown,
): DataMergeResult {
  const open: LeafConflict[] = [];
  const all: LeafConflict[] = [];
  const merged = mergeValue(base === undefined ? NO_BASE : base, ours, theirs, [], choose, open, all, schema);
  return { data: merged as Record<string, unknown>, open, all };
}

/** Two additions have no base at all (every differing leaf conflicts); a key missing from a base object is absent. */
const NO_BASE = Symbol('no base');

function mergeValue(
  base: unknown,
  ours: unknown,
  theirs: unknown,
  path: string[],
  choose: LeafChoice,
  open: LeafConflict[],
  all: LeafConflict[],
  schema: unknown,
): unknown {
  if (jsonDeepEqual(ours, theirs) && (ours === undefined) === (theirs === undefined)) return ours;
  if (base !== NO_BASE && sameValue(base, ours)) return theirs;
  if (base !== NO_BASE && sameValue(base, theirs)) return ours;
  if (isPlainObject(ours) && isPlainObject(theirs) && (base === NO_BASE || base === undefined || isPlainObject(base))) {
    const out: Record<string, unknown> = {};
    const baseObject = isPlainObject(base) ? base : undefined;
    for (const key of propertyOrder(schema, ours, theirs)) {
      const child = base === NO_BASE ? NO_BASE : baseObject?.[key];
      const value = mergeValue(child, ours[key], theirs[key], [...path, key], choose, open, all, childSchema(schema, key));
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  const conflict: LeafConflict = {
    path: toJsonPointer(path),
    base: base === NO_BASE ? null : (base ?? null),
    ours: ours ?? null,
    theirs: theirs ?? null,
  };
  all.push(conflict);
  const chosen = choose(conflict);
  if (chosen === null) {
    open.push(conflict);
    return ours;
  }
  return chosen.value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return (a === undefined) === (b === undefined) && jsonDeepEqual(a ?? null, b ?? null);
}

function childSchema(schema: unknown, key: string): unknown {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return undefined;
  return schema.properties[key];
}

/** The schema's `properties` order, then keys only the data has (ours first). */
export function propertyOrder(schema: unknown, ...objects: readonly Record<string, unknown>[]): string[] {
  const keys = new Set<string>();
  if (isPlainObject(schema) && isPlainObject(schema.properties)) for (const key of Object.keys(schema.properties)) keys.add(key);
  const known = new Set(keys);
  const present = new Set(objects.flatMap((object) => Object.keys(object)));
  const out = [...keys].filter((key) => present.has(key));
  for (const object of objects) for (const key of Object.keys(object)) if (!known.has(key) && !out.includes(key)) out.push(key);
  return out;
}
