import { isPlainObject } from './jsonValue.ts';
import { convertValue, rawDefault, type DataPath, type LossListener } from './convertValue.ts';
import { setOwn } from './jsonPatchValue.ts';
import { splitArrayContext } from './schemaLocation.ts';

/**
 * Data effects of schema patch operations (domain.md §6). A step mutates the row data it is given (a private copy
 * made by `migrate`). Rows that do not have the expected shape at a path are left alone there; the migrated rows
 * are validated afterwards.
 */
export type MigrationStep = (data: unknown, onLoss?: LossListener) => void;

type Slot = { readonly container: Record<string, unknown> | unknown[]; readonly key: string | number };

/** Where a value sits in the row data (array indexes included), built only when losses are reported. */
type Where = DataPath | null;

const next = (where: Where, segment: string | number): Where => (where === null ? null : [...where, segment]);

const hasOwn = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/** Calls `fn` for each value reached by `path` (`'*'` = every element of an array), with where it sits. */
function forEachAt(value: unknown, path: readonly string[], index: number, where: Where, fn: (value: unknown, where: Where) => void): void {
  if (index === path.length) return fn(value, where);
  const segment = path[index] as string;
  if (segment === '*') {
    if (Array.isArray(value)) value.forEach((item: unknown, i) => forEachAt(item, path, index + 1, next(where, i), fn));
  } else if (isPlainObject(value) && hasOwn(value, segment)) {
    forEachAt(value[segment], path, index + 1, next(where, segment), fn);
  }
}

/**
 * The slots (container + key) a data path names: object properties, or every element for a trailing `'*'`. With
 * `where` (the path of `data`), each slot comes with its own path.
 */
function forEachSlot(data: unknown, path: readonly string[], fn: (slot: Slot, where: Where) => void, where: Where = null): void {
  const last = path[path.length - 1];
  if (last === undefined) return;
  forEachAt(data, path.slice(0, -1), 0, where, (container, at) => {
    if (last === '*') {
      if (Array.isArray(container)) for (let i = 0; i < container.length; i++) fn({ container, key: i }, next(at, i));
    } else if (isPlainObject(container)) {
      fn({ container, key: last }, next(at, last));
    }
  });
}

function write(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.container)) slot.container[slot.key as number] = value;
  else setOwn(slot.container, slot.key as string, value);
}

function read(slot: Slot): { found: boolean; value: unknown } {
  if (Array.isArray(slot.container)) return { found: true, value: slot.container[slot.key as number] };
  const found = hasOwn(slot.container, slot.key as string);
  return { found, value: found ? slot.container[slot.key as string] : undefined };
}

/** `add` of a new property: every row gets the node's default. */
export function addDefaultStep(dataPath: readonly string[], node: unknown): MigrationStep {
  return (data) => forEachSlot(data, dataPath, (slot) => write(slot, rawDefault(node)));
}

/**
 * `replace` (or `add` onto an existing node): every value converted to the new node; missing ones get its default.
 * Values the conversion could not keep go to `onLoss` with their path in the row data. `from` is the node replaced.
 */
export function convertStep(dataPath: readonly string[], node: unknown, from?: unknown): MigrationStep {
  return (data, onLoss) =>
    forEachSlot(
      data,
      dataPath,
      (slot, where) => {
        const current = read(slot);
        if (!current.found) return write(slot, rawDefault(node));
        const listener: LossListener | undefined =
          onLoss && where !== null ? (path, before, after) => onLoss([...where, ...path], before, after) : undefined;
        write(slot, convertValue(current.value, node, listener, from));
      },
      onLoss ? [] : null,
    );
}

export function removeStep(dataPath: readonly string[]): MigrationStep {
  return (data) =>
    forEachSlot(data, dataPath, (slot) => {
      if (!Array.isArray(slot.container)) delete slot.container[slot.key as string];
    });
}

/**
 * `move` / `copy` between two property paths inside the same array context (checked by the caller): within each
 * context element the value at `from` is moved or copied to `to`.
 */
export function transferStep(from: readonly string[], to: readonly string[], mode: 'move' | 'copy'): MigrationStep {
  const { context, rest: fromRest } = splitArrayContext(from);
  const toRest = to.slice(context.length);
  return (data) =>
    forEachAt(data, context, 0, null, (element) => {
      let value: unknown;
      let found = false;
      forEachSlot(element, fromRest, (slot) => {
        const current = read(slot);
        if (!current.found) return;
        found = true;
        value = current.value;
        if (mode === 'move' && !Array.isArray(slot.container)) delete slot.container[slot.key as string];
      });
      if (!found) return;
      forEachSlot(element, toRest, (slot) => write(slot, mode === 'copy' ? structuredClone(value) : value));
    });
}
