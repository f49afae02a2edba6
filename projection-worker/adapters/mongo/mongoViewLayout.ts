import type { Document } from 'mongodb';
import type { CollectionSpec, FieldType, Scalar, ViewDoc } from '../../../contracts/index.ts';
import { assertCollectionSpec, assertFieldValue, versionedCollectionName } from '../viewCollectionSpec.ts';

/** What reads and writes need to know about one stored collection of a projection version. */
export type CollectionLayout = {
  readonly collection: string;
  /** MongoDB collection name, `v_<projection>_<version>_<collection>`. */
  readonly name: string;
  readonly fields: readonly (readonly [name: string, type: FieldType])[];
  readonly types: ReadonlyMap<string, FieldType>;
  readonly key: readonly string[];
};

/** A document as MongoDB holds it (the driver's own untyped document). */
export type StoredDoc = Document;

/**
 * Object flags of the fields that are null in a document (`{ title: true }`): sorting on `_nulls.<field>` first puts
 * null values after all others in both directions, which a plain MongoDB sort cannot do (null sorts first on asc).
 */
export const NULLS = '_nulls';

// Field names become top-level MongoDB keys and dotted query paths: no `.`, `$`, or `_` prefix (reserved for `_id`).
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export function collectionLayout(projection: string, version: number, spec: CollectionSpec): CollectionLayout {
  const fields = Object.entries(spec.fields);
  for (const [name] of fields) {
    if (!FIELD_NAME.test(name)) throw new Error(`collection "${spec.name}": field name "${name}" cannot be stored in MongoDB`);
  }
  assertCollectionSpec(spec);
  const name = versionedCollectionName(projection, version, spec.name);
  return { collection: spec.name, name, fields, types: new Map(fields), key: spec.key };
}

/**
 * Object keys inside json values, made safe for MongoDB paths: `%`, `.`, `$` and NUL are percent-escaped, and keys
 * that are empty or start with a digit get a `%_` prefix so that a numeric path segment can only mean an array index.
 */
export function encodeKey(key: string): string {
  const escaped = key.replace(/[%.$\0]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return escaped === '' || /^[0-9]/.test(escaped) ? `%_${escaped}` : escaped;
}

export function decodeKey(key: string): string {
  const body = key.startsWith('%_') ? key.slice(2) : key;
  return body.replace(/%([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function mapKeys(value: unknown, map: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => mapKeys(item, map));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) out[map(key)] = mapKeys(member, map);
    return out;
  }
  return value;
}

/**
 * A JSON value as stored: normalised the way JSON text would be (as the SQLite adapter stores it: -0 becomes 0,
 * undefined members vanish, toJSON applies), object keys escaped with encodeKey. Undefined when not JSON at all.
 */
export function encodeJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : mapKeys(JSON.parse(text), encodeKey);
}

export function decodeJson(value: unknown): unknown {
  return mapKeys(value, decodeKey);
}

/** A document value as stored (undefined for null: null fields are left out); throws on a value of the wrong type. */
export function encodeValue(layout: CollectionLayout, field: string, type: FieldType, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  assertFieldValue(layout.collection, field, type, value);
  if (type === 'json') return encodeJson(value);
  // -0 would read back as -0 here but as 0 from the SQLite adapter.
  return value === 0 ? 0 : value;
}

/** `_id` of a document: the key value itself for one key field, a sub-document in key order for several. */
export function documentId(layout: CollectionLayout, values: Readonly<Record<string, unknown>>): unknown {
  const parts = layout.key.map((name) => {
    const type = layout.types.get(name) as FieldType;
    const value = encodeValue(layout, name, type, values[name]);
    if (value === undefined) throw new Error(`${layout.collection}: key field "${name}" is missing`);
    // Arrays cannot be `_id` values; json keys are compared by their JSON text.
    return type === 'json' ? JSON.stringify(value) : value;
  });
  if (parts.length === 1) return parts[0];
  return Object.fromEntries(layout.key.map((name, i) => [name, parts[i]]));
}

/** `_id` for a lookup by key values, or null when a key value is null (no document can match). */
export function lookupId(layout: CollectionLayout, key: Readonly<Record<string, Scalar>>): unknown {
  for (const name of layout.key) {
    if (!Object.hasOwn(key, name)) throw new Error(`${layout.collection}: key field "${name}" is missing`);
    if (key[name] === null) return null;
  }
  try {
    return documentId(layout, key);
  } catch {
    // A key value of the wrong type matches no stored document.
    return null;
  }
}

/** The stored form of a view document: declared fields only, nulls left out and flagged in `_nulls`. */
export function encodeDoc(layout: CollectionLayout, doc: ViewDoc): StoredDoc {
  const stored: StoredDoc = { _id: documentId(layout, doc) };
  const nulls: Record<string, true> = {};
  for (const [name, type] of layout.fields) {
    const value = encodeValue(layout, name, type, doc[name]);
    if (value === undefined) nulls[name] = true;
    else stored[name] = value;
  }
  if (Object.keys(nulls).length > 0) stored[NULLS] = nulls;
  return stored;
}

/** Every declared field, missing ones as null. */
export function decodeDoc(layout: CollectionLayout, stored: StoredDoc): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [name, type] of layout.fields) {
    const value = stored[name];
    doc[name] = value === undefined || value === null ? null : type === 'json' ? decodeJson(value) : value;
  }
  return doc;
}
