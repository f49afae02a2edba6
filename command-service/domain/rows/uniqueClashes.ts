import { AppError, MAX_ERROR_DETAILS, isPlainObject, toJsonPointer } from '../../../contracts/index.ts';
import type { ErrorDetail, IndexedField } from '../../../contracts/index.ts';

/** A value a unique field compares: strings byte for byte, numbers by value (domain.md §5.5). */
export type UniqueValue = string | number;

/** A row whose values are new: created, replaced, patched or migrated by the write being decided. */
export type UniqueCandidate = { readonly rowId: string; readonly data: unknown; readonly index?: number };

/**
 * The facts a uniqueness decision needs, whatever holds them (the branch content in memory today, index reads on
 * the decision store later): the table's unique fields, the rows the write gives new values, and which other rows
 * of the table, as the write leaves it, hold a value.
 */
export type UniqueFacts = {
  readonly tableId: string;
  /** The `x-unique` fields of the table's schema after the write. */
  readonly fields: readonly IndexedField[];
  readonly candidates: readonly UniqueCandidate[];
  /**
   * Ids of the table's rows holding `value` at the field, as the write leaves the table, leaving out the
   * candidates (their new data is what is checked).
   */
  holders(field: IndexedField, value: UniqueValue): Iterable<string>;
};

export type UniqueClash = {
  readonly rowId: string;
  readonly index?: number;
  /** The field's data path as a JSON Pointer (`/sku`). */
  readonly path: string;
  readonly value: UniqueValue;
  /** The row that already holds the value (another candidate, or a row the write leaves alone). */
  readonly otherRowId: string;
};

/** The field's value in row data, when it is one a unique field compares; `""` means "not set" and is exempt. */
export function uniqueValueAt(data: unknown, dataPath: readonly string[]): UniqueValue | null {
  let value: unknown = data;
  for (const segment of dataPath) {
    if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, segment)) return null;
    value = value[segment];
  }
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Numbers by value, strings byte for byte (domain.md §5.5), never one for the other. */
export const uniqueValueKey = (value: UniqueValue): string => `${typeof value}:${String(value)}`;

/**
 * Every clash the write would create, in candidate order per field (domain.md §5.5): a candidate whose value is held
 * by a row left alone, or by an earlier candidate that did not clash itself. Pure: the caller gathers the facts.
 */
export function uniqueClashes(facts: UniqueFacts): UniqueClash[] {
  const clashes: UniqueClash[] = [];
  for (const field of facts.fields) {
    const taken = new Map<string, string>();
    for (const candidate of facts.candidates) {
      const value = uniqueValueAt(candidate.data, field.dataPath);
      if (value === null) continue;
      const key = uniqueValueKey(value);
      let other = taken.get(key);
      if (other === undefined) {
        for (const rowId of facts.holders(field, value)) {
          if (rowId !== candidate.rowId) {
            other = rowId;
            break;
          }
        }
      }
      if (other === undefined) {
        taken.set(key, candidate.rowId);
        continue;
      }
      clashes.push({
        rowId: candidate.rowId,
        ...(candidate.index !== undefined ? { index: candidate.index } : {}),
        path: toJsonPointer(field.dataPath),
        value,
        otherRowId: other,
      });
    }
  }
  return clashes;
}

function clashMessage(clash: UniqueClash): string {
  return `Another row ("${clash.otherRowId}") already has "${clash.path}" = ${JSON.stringify(clash.value)}`;
}

/** The refusal of one or more clashes: `409 UNIQUE_VIOLATION`, one `{path, message, rowId, otherRowId, value, index?}` detail per clash. */
export function uniqueViolation(tableId: string, clashes: readonly UniqueClash[]): AppError {
  const [first] = clashes;
  const message =
    clashes.length === 1 && first !== undefined
      ? `${clashMessage(first)} in table "${tableId}" (row "${first.rowId}")`
      : `${clashes.length} values of unique fields are already taken in table "${tableId}"`;
  const details: ErrorDetail[] = clashes.slice(0, MAX_ERROR_DETAILS).map((clash) => ({
    path: clash.path,
    message: clashMessage(clash),
    rowId: clash.rowId,
    otherRowId: clash.otherRowId,
    value: clash.value,
    ...(clash.index !== undefined ? { index: clash.index } : {}),
  }));
  return new AppError('UNIQUE_VIOLATION', message, details);
}

/** Throws UNIQUE_VIOLATION when the write would repeat a value of a unique field. */
export function assertUnique(facts: UniqueFacts): void {
  if (facts.fields.length === 0 || facts.candidates.length === 0) return;
  const clashes = uniqueClashes(facts);
  if (clashes.length > 0) throw uniqueViolation(facts.tableId, clashes);
}
