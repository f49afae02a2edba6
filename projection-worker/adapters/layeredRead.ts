import { visibleAt } from '../../contracts/index.ts';
import type { Filter, Scalar, VersionLayer, VersionedRead } from '../../contracts/index.ts';

/**
 * The parts of a layered read (FindQuery.versions, docs/reference/versioned-storage.md §1) that both view stores
 * build alike: one arm per layer (the layer's documents that are not tombstones, with the query's filter) and, per
 * arm below the top, the upper layers whose identities it must not show.
 */

const VERSION_FIELDS = ['branchId', 'fromSeq', 'toSeq', 'tombstone'] as const;

/** Throws unless the collection holds versions and every identity field is a key field (never null). */
export function assertVersionedRead(collection: string, fields: ReadonlyMap<string, unknown>, key: readonly string[], versions: VersionedRead): void {
  for (const field of VERSION_FIELDS) {
    if (!fields.has(field)) throw new Error(`${collection}: a layered read needs the field "${field}"`);
  }
  if (versions.identity.length === 0) throw new Error(`${collection}: a layered read needs identity fields`);
  for (const field of versions.identity) {
    if (!key.includes(field)) throw new Error(`${collection}: identity field "${field}" is not a key field`);
  }
}

const NOT_TOMBSTONE: Filter = { kind: 'not', filter: { kind: 'compare', ref: { field: 'tombstone' }, op: 'eq', value: true } };

/** The visible candidates of one layer: its versions valid at the layer's sequence, tombstones left out. */
export function armFilter(layer: VersionLayer, filter: Filter | undefined): Filter {
  const filters = [visibleAt(layer.branchId, layer.seq), NOT_TOMBSTONE];
  if (filter !== undefined && filter.kind !== 'all') filters.push(filter);
  return { kind: 'and', filters };
}

/** Every document of one upper layer valid at its sequence (tombstones too) that can hide a matching lower one. */
export function upperFilter(layer: VersionLayer, pins: readonly Filter[]): Filter {
  return { kind: 'and', filters: [visibleAt(layer.branchId, layer.seq), ...pins] };
}

/**
 * Equality and `in` tests on identity fields that `filter` requires of every match (found through its top-level
 * `and`s): a lower document can only be hidden by an upper one with the same identity, so the upper layers need
 * only be read where they hold. Keeps the reads of upper identities as narrow as the query (a table, a row id).
 */
export function identityPins(filter: Filter | undefined, identity: readonly string[]): Filter[] {
  if (filter === undefined) return [];
  if (filter.kind === 'and') return filter.filters.flatMap((part) => identityPins(part, identity));
  const plain = (ref: { field: string; path?: readonly unknown[]; cast?: string }) =>
    identity.includes(ref.field) && ref.cast === undefined && (ref.path === undefined || ref.path.length === 0);
  if (filter.kind === 'compare' && filter.op === 'eq' && plain(filter.ref)) return [filter];
  if (filter.kind === 'in' && plain(filter.ref)) return [filter];
  return [];
}

/**
 * The identity values when `filter` is nothing but an equality on every identity field (a read by id): then at most
 * one document is visible, the topmost of that identity, and one statement over all layers finds it.
 */
export function pinnedIdentity(filter: Filter | undefined, identity: readonly string[]): Map<string, Scalar> | null {
  if (filter === undefined) return null;
  const parts = filter.kind === 'and' ? filter.filters : [filter];
  const values = new Map<string, Scalar>();
  for (const part of parts) {
    if (part.kind !== 'compare' || part.op !== 'eq' || part.value === null) return null;
    const { field, path, cast } = part.ref;
    if (!identity.includes(field) || cast !== undefined || (path !== undefined && path.length > 0) || values.has(field)) return null;
    values.set(field, part.value);
  }
  return values.size === identity.length ? values : null;
}

/** The versions of one identity in every layer (tombstones too): the topmost decides (`pinnedIdentity`). */
export function pinnedFilter(layers: readonly VersionLayer[], values: ReadonlyMap<string, Scalar>): Filter {
  const pins: Filter[] = [...values].map(([field, value]) => ({ kind: 'compare', ref: { field }, op: 'eq', value }));
  return { kind: 'and', filters: [...pins, { kind: 'or', filters: layers.map((layer) => visibleAt(layer.branchId, layer.seq)) }] };
}

/** The visible document among the versions of one identity read with `pinnedFilter`: the topmost, unless a tombstone. */
export function topmost<T extends Readonly<Record<string, unknown>>>(docs: readonly T[], layers: readonly VersionLayer[]): T | null {
  for (const layer of layers) {
    const doc = docs.find((candidate) => candidate.branchId === layer.branchId);
    if (doc !== undefined) return doc.tombstone === true ? null : doc;
  }
  return null;
}
