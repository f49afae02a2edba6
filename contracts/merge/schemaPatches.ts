import { escapePointerToken } from '../tables/jsonPointer.ts';
import { isPlainObject, jsonDeepEqual } from '../tables/jsonValue.ts';

/** An updateTable patch operation (domain.md §6); `schemaPatches` makes no moves or copies, the log holds them. */
export type SchemaPatch =
  | { readonly op: 'add' | 'replace'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

/** Keywords maintained by the schema patch rules (domain.md §6 rule 1) or walked into as nodes. */
const NOT_PATCHED = new Set(['required', 'additionalProperties', 'properties', 'items', 'type']);

/**
 * The updateTable patches (domain.md §6) that turn schema `from` into `to`, node by node: properties added and
 * removed, nodes of another kind replaced (their values converted by the migration), keywords set or removed.
 * A merge uses them to take one side's schema on the other side's table: every row of the draft is migrated by the
 * same conversions as a schema change (merge.md §2.1, see docs/reference/versioned-storage.md §3).
 */
export function schemaPatches(from: unknown, to: unknown): SchemaPatch[] {
  const out: SchemaPatch[] = [];
  diffNode('', from, to, out);
  return out;
}

function kindOf(node: unknown): string {
  if (!isPlainObject(node)) return 'other';
  if (typeof node.$ref === 'string') return `ref:${node.$ref}`;
  return typeof node.type === 'string' ? node.type : 'other';
}

function diffNode(path: string, from: unknown, to: unknown, out: SchemaPatch[]): void {
  if (jsonDeepEqual(from, to)) return;
  const kind = kindOf(from);
  if (path !== '' && (kind !== kindOf(to) || kind === 'other' || !isPlainObject(from) || !isPlainObject(to))) {
    out.push({ op: 'replace', path, value: to });
    return;
  }
  if (!isPlainObject(from) || !isPlainObject(to)) return;
  for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (NOT_PATCHED.has(key) || key.startsWith('$')) continue;
    const keywordPath = `${path}/${escapePointerToken(key)}`;
    if (!(key in to)) out.push({ op: 'remove', path: keywordPath });
    else if (!(key in from)) out.push({ op: 'add', path: keywordPath, value: to[key] });
    else if (!jsonDeepEqual(from[key], to[key])) out.push({ op: 'replace', path: keywordPath, value: to[key] });
  }
  if (kind === 'object') {
    const fromProps = isPlainObject(from.properties) ? from.properties : {};
    const toProps = isPlainObject(to.properties) ? to.properties : {};
    for (const key of Object.keys(fromProps))
      if (!(key in toProps)) out.push({ op: 'remove', path: `${path}/properties/${escapePointerToken(key)}` });
    for (const [key, node] of Object.entries(toProps)) {
      const propPath = `${path}/properties/${escapePointerToken(key)}`;
      if (!(key in fromProps)) out.push({ op: 'add', path: propPath, value: node });
      else diffNode(propPath, fromProps[key], node, out);
    }
  } else if (kind === 'array') {
    diffNode(`${path}/items`, from.items, to.items, out);
  }
}
