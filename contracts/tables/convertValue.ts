import { isPlainObject } from './jsonValue.ts';
import { setOwn } from './jsonPatchValue.ts';

/**
 * Data conversions of domain.md §6 for `replace` at a node path. They work on raw (not yet validated) schema
 * nodes, because a patch may pass through invalid intermediate schemas; the final schema and rows are validated
 * afterwards. The old kind is read from the value itself, which equals the old node's kind for valid rows.
 *
 * A conversion that cannot keep a value and uses its rule's fallback reports a loss (domain.md §6 rule 6, the dry
 * run's `rowsLossy`): a string that is no number → 0, a string other than "true"/"false" → false, a number other
 * than 0/1 → boolean, a dropped array tail, an object (or a value replaced by an object) → the new default, a value
 * replaced by a system ref. Values that hold nothing (an empty array, an empty object) lose nothing. Each rule
 * reports where it falls back: `integer` reports a truncated fraction and a value outside the safe range or the
 * node's bounds (replaced by the node's default).
 *
 * The old node is passed along where known (`from`), only to tell integer -> integer ("same primitive kind: value
 * kept") from number -> integer: both hold JSON numbers.
 */

type NodeKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'systemRef' | 'unknown';
type Primitive = string | number | boolean;

/** A data path below the converted value: property names and array indexes. */
export type DataPath = readonly (string | number)[];

/** Called for each value a conversion could not keep: where (below the converted value), the value, its replacement. */
export type LossListener = (path: DataPath, before: unknown, after: unknown) => void;

/** Loss reporting of one conversion in progress; null when nobody listens (the real run). */
type Tracker = { readonly report: LossListener; readonly path: DataPath } | null;

export function nodeKind(node: unknown): NodeKind {
  if (!isPlainObject(node)) return 'unknown';
  if (Object.prototype.hasOwnProperty.call(node, '$ref')) return 'systemRef';
  const { type } = node;
  return type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' || type === 'object' || type === 'array'
    ? type
    : 'unknown';
}

/** The node's default as `add` fills it in: objects from nested defaults, arrays `[]`, system refs `""`. */
export function rawDefault(node: unknown): unknown {
  const kind = nodeKind(node);
  const raw = isPlainObject(node) ? node : {};
  switch (kind) {
    case 'string':
      return typeof raw.default === 'string' ? raw.default : '';
    case 'number':
      return typeof raw.default === 'number' && Number.isFinite(raw.default) ? zeroFix(raw.default) : 0;
    case 'integer':
      return typeof raw.default === 'number' && Number.isSafeInteger(raw.default) ? zeroFix(raw.default) : 0;
    case 'boolean':
      return typeof raw.default === 'boolean' ? raw.default : false;
    case 'systemRef':
      return '';
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      if (isPlainObject(raw.properties)) {
        for (const [name, child] of Object.entries(raw.properties)) setOwn(out, name, rawDefault(child));
      }
      return out;
    }
    case 'unknown':
      return null;
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function zeroFix(n: number): number {
  return n === 0 ? 0 : n;
}

/** The number a string holds: a non-empty finite decimal literal after trimming, else null. */
function decimalOf(text: string): number | null {
  const trimmed = text.trim();
  if (!DECIMAL.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? zeroFix(n) : null;
}

/** string -> number: a non-empty finite decimal literal after trimming, else 0. */
export function parseDecimal(text: string): number {
  return decimalOf(text) ?? 0;
}

function lost(tracker: Tracker, before: unknown, after: unknown): void {
  if (tracker !== null) tracker.report(tracker.path, before, after);
}

function below(tracker: Tracker, segment: string | number): Tracker {
  return tracker === null ? null : { report: tracker.report, path: [...tracker.path, segment] };
}

/**
 * Converts a part of `value` (an element) whose losses are reported for `value` as a whole: `[x]` from a primitive
 * and the first element of an array stand for the converted value, not for a place in it.
 */
function convertPart(part: unknown, to: unknown, from: unknown, tracker: Tracker): { readonly value: unknown; readonly lost: boolean } {
  if (tracker === null) return { value: convert(part, to, from, null), lost: false };
  let partLost = false;
  const value = convert(part, to, from, { report: () => void (partLost = true), path: [] });
  return { value, lost: partLost };
}

function withinBounds(n: number, node: Record<string, unknown>): boolean {
  const { minimum, maximum } = node;
  return Number.isSafeInteger(n) && !(typeof minimum === 'number' && n < minimum) && !(typeof maximum === 'number' && n > maximum);
}

/**
 * -> integer (domain.md §6): as -> number, then truncated toward zero; outside the safe range or the node's bounds,
 * the node's default. Either fallback is a loss.
 */
function toInteger(value: Primitive, node: Record<string, unknown>, tracker: Tracker): number {
  let lossReported = false;
  const number = convertPrimitive(value, 'number', tracker === null ? null : { report: () => void (lossReported = true), path: [] }, node) as number;
  const truncated = zeroFix(Math.trunc(number));
  const result = withinBounds(truncated, node) ? truncated : (rawDefault({ ...node, type: 'integer' }) as number);
  if (lossReported || result !== number) lost(tracker, value, result);
  return result;
}

function convertPrimitive(
  value: Primitive,
  to: 'string' | 'number' | 'integer' | 'boolean',
  tracker: Tracker,
  node: Record<string, unknown>,
): Primitive {
  switch (to) {
    case 'integer':
      return toInteger(value, node, tracker);
    case 'string':
      return typeof value === 'string' ? value : String(value);
    case 'number': {
      if (typeof value === 'number') return zeroFix(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      const n = decimalOf(value);
      if (n !== null) return n;
      lost(tracker, value, 0);
      return 0;
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      // 0/1 and "true"/"false" are what boolean -> number/string give back; anything else cannot be kept.
      if (typeof value === 'number') {
        if (value !== 0 && value !== 1) lost(tracker, value, true);
        return value !== 0;
      }
      if (value !== 'true' && value !== 'false') lost(tracker, value, false);
      return value === 'true';
    }
  }
}

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Whether replacing `value` by a default loses anything: not for an empty array or object (or a missing value). */
function holdsData(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return value !== null && value !== undefined;
}

function replacedByDefault(value: unknown, to: unknown, tracker: Tracker): unknown {
  const fallback = rawDefault(to);
  if (holdsData(value)) lost(tracker, value, fallback);
  return fallback;
}

function convert(value: unknown, to: unknown, from: unknown, tracker: Tracker): unknown {
  const kind = nodeKind(to);
  const node = isPlainObject(to) ? to : {};
  const old = isPlainObject(from) ? from : {};
  switch (kind) {
    case 'unknown':
      return value;
    case 'systemRef':
      // System fields are stored as "" and filled in on reads: whatever the row held is gone.
      if (value !== '' && holdsData(value)) lost(tracker, value, '');
      return '';
    case 'object': {
      if (!isPlainObject(value)) return replacedByDefault(value, to, tracker);
      const out: Record<string, unknown> = {};
      if (isPlainObject(node.properties)) {
        for (const [name, child] of Object.entries(node.properties)) {
          const has = Object.prototype.hasOwnProperty.call(value, name);
          const oldChild = isPlainObject(old.properties) ? old.properties[name] : undefined;
          setOwn(out, name, has ? convert(value[name], child, oldChild, below(tracker, name)) : rawDefault(child));
        }
      }
      return out;
    }
    case 'array': {
      if (Array.isArray(value)) return value.map((item: unknown, index) => convert(item, node.items, old.items, below(tracker, index)));
      if (!isPrimitive(value)) return replacedByDefault(value, to, tracker);
      const element = convertPart(value, node.items, from, tracker);
      const out = [element.value];
      if (element.lost) lost(tracker, value, out);
      return out;
    }
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean': {
      if (Array.isArray(value)) {
        if (value.length === 0) return rawDefault(to);
        const first = convertPart(value[0], to, old.items, tracker);
        if (first.lost || value.length > 1) lost(tracker, value, first.value);
        return first.value;
      }
      // Same primitive kind: value kept (an integer stays as it is; new bounds are checked by validation).
      if (kind === 'integer' && nodeKind(from) === 'integer' && typeof value === 'number') return value;
      return isPrimitive(value) ? convertPrimitive(value, kind, tracker, node) : replacedByDefault(value, to, tracker);
    }
  }
}

/**
 * Converts a stored value to the kind of node `to` (the conversion table of domain.md §6). With `onLoss`, every
 * value the conversion could not keep is reported with its path below `value`.
 */
export function convertValue(value: unknown, to: unknown, onLoss?: LossListener, from?: unknown): unknown {
  return convert(value, to, from, onLoss ? { report: onLoss, path: [] } : null);
}
