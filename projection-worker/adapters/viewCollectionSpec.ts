import type { CollectionSpec, FieldType } from '../../contracts/index.ts';

/** The rules every ViewStore adapter applies to a projection's collection specs, written once. */

const PROJECTION_NAME = /^[a-z][a-z0-9_-]*$/;
const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/;
const FIELD_TYPES: ReadonlySet<string> = new Set<FieldType>(['text', 'integer', 'real', 'boolean', 'json']);

/** The stored name of a collection of one projection version: `v_<projection>_<version>_<collection>`, `-` as `_`. */
export function versionedCollectionName(projection: string, version: number, collection: string): string {
  if (!PROJECTION_NAME.test(projection)) throw new Error(`invalid projection name "${projection}"`);
  if (!COLLECTION_NAME.test(collection)) throw new Error(`invalid collection name "${collection}"`);
  if (!Number.isSafeInteger(version) || version < 0) throw new Error(`invalid projection version ${version}`);
  return `v_${projection.replaceAll('-', '_')}_${version}_${collection}`;
}

/**
 * Throws on a spec no store can hold: no key, a key or index field that is not declared, an unknown field type, a
 * unique index marked readersOnly (uniqueness constrains every write, so it cannot wait for completeVersion).
 */
export function assertCollectionSpec(spec: CollectionSpec): void {
  const fields = Object.entries(spec.fields);
  if (spec.key.length === 0) throw new Error(`collection "${spec.name}" has no key`);
  for (const name of [...spec.key, ...(spec.indexes ?? []).flatMap((i) => i.fields)]) {
    if (!Object.hasOwn(spec.fields, name)) throw new Error(`collection "${spec.name}": key or index field "${name}" is not declared`);
  }
  for (const [name, type] of fields) {
    if (!FIELD_TYPES.has(type)) throw new Error(`collection "${spec.name}": field "${name}" has bad type`);
  }
  for (const index of spec.indexes ?? []) {
    if (index.unique === true && index.readersOnly === true) {
      throw new Error(`collection "${spec.name}": a unique index cannot be readersOnly (${index.fields.join(', ')})`);
    }
  }
}

/** Throws unless a (non-null) document value fits its field's type; both adapters store only what fits. */
export function assertFieldValue(collection: string, field: string, type: FieldType, value: unknown): void {
  const ok =
    type === 'json' ||
    (type === 'text' && typeof value === 'string') ||
    (type === 'integer' && Number.isInteger(value)) ||
    (type === 'real' && typeof value === 'number' && Number.isFinite(value)) ||
    (type === 'boolean' && typeof value === 'boolean');
  if (!ok) throw new Error(`${collection}.${field}: expected ${type}, got ${JSON.stringify(value) ?? 'undefined'}`);
}
