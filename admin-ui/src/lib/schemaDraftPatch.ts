import type { JsonSchema } from '../api/types.ts';
import { escapePointerSegment } from './jsonPointer.ts';
import { kindOf, toSchema, type FieldDraft, type NodeDraft } from './schemaDraft.ts';
import { jsonEqual, type JsonPatchOperation } from './schemaPatch.ts';

const prop = (path: string, name: string): string => `${path}/properties/${escapePointerSegment(name)}`;
const KEPT_BY_SERVER = new Set(['type', 'properties', 'items', 'required', 'additionalProperties']);

/** Keyword-level operations for an object or array node (annotations; no data change, domain.md §6). */
function keywordOps(before: JsonSchema, draft: NodeDraft, path: string, out: JsonPatchOperation[]): void {
  const keys = new Set([...Object.keys(before).filter((key) => !KEPT_BY_SERVER.has(key)), ...Object.keys(draft.keywords)]);
  for (const key of keys) {
    const target = `${path}/${escapePointerSegment(key)}`;
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(draft.keywords, key);
    if (had && !has) out.push({ op: 'remove', path: target });
    else if (!had && has) out.push({ op: 'add', path: target, value: draft.keywords[key] });
    else if (!jsonEqual(before[key], draft.keywords[key])) out.push({ op: 'replace', path: target, value: draft.keywords[key] });
  }
}

function nodeOps(before: JsonSchema, draft: NodeDraft, path: string, out: JsonPatchOperation[]): void {
  const after = toSchema(draft);
  if (jsonEqual(before, after)) return;
  const kind = kindOf(before);
  // A changed kind or leaf is replaced as a whole: the server converts every row's value (same kind: kept).
  if (kind !== draft.kind || (kind !== 'object' && kind !== 'array')) {
    out.push({ op: 'replace', path, value: after });
    return;
  }
  keywordOps(before, draft, path, out);
  if (kind === 'object') fieldOps(before, draft.fields, path, out);
  else if (before.items && draft.items) nodeOps(before.items, draft.items, `${path}/items`, out);
}

function tempName(taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) if (!taken.has(`reorder_tmp_${n}`)) return `reorder_tmp_${n}`;
}

/**
 * Operations on the properties of one object: removals, renames as `move` (so values follow), changes inside kept
 * fields, additions at their defaults, then moves that restore the edited order (a move appends, as `add` does).
 */
function fieldOps(before: JsonSchema, fields: readonly FieldDraft[], path: string, out: JsonPatchOperation[]): void {
  const stored = before.properties ?? {};
  const kept = fields.filter((f): f is FieldDraft & { origin: string } => f.origin !== null && Object.hasOwn(stored, f.origin));
  const used = new Set(kept.map((f) => f.origin));
  for (const name of Object.keys(stored)) if (!used.has(name)) out.push({ op: 'remove', path: prop(path, name) });
  let order = Object.keys(stored).filter((name) => used.has(name));
  const renamed = kept.filter((f) => f.origin !== f.name);
  // Swaps and chains (a→b while b→c) go through temporary names first.
  const collides = renamed.some((f) => order.includes(f.name));
  const staged = renamed.map((f) => {
    if (!collides) return { from: f.origin, to: f.name };
    const temp = tempName(new Set([...order, ...fields.map((x) => x.name)]));
    out.push({ op: 'move', from: prop(path, f.origin), path: prop(path, temp) });
    order = [...order.filter((name) => name !== f.origin), temp];
    return { from: temp, to: f.name };
  });
  for (const { from, to } of staged) {
    out.push({ op: 'move', from: prop(path, from), path: prop(path, to) });
    order = [...order.filter((name) => name !== from), to];
  }
  for (const field of kept) nodeOps(stored[field.origin] as JsonSchema, field.node, prop(path, field.name), out);
  for (const field of fields) {
    if (field.origin !== null && used.has(field.origin)) continue;
    out.push({ op: 'add', path: prop(path, field.name), value: toSchema(field.node) });
    order.push(field.name);
  }
  const wanted = fields.map((f) => f.name);
  const first = wanted.findIndex((name, i) => order[i] !== name);
  if (first < 0) return;
  for (const name of wanted.slice(first)) {
    const temp = tempName(new Set(wanted));
    out.push({ op: 'move', from: prop(path, name), path: prop(path, temp) }, { op: 'move', from: prop(path, temp), path: prop(path, name) });
  }
}

/**
 * The JSON Patch (domain.md §6) that turns the stored table schema into the edited draft. Fields are matched by
 * identity, not by name: a rename is a `move` and keeps every row's value; a changed type is a node `replace`, which
 * converts values by the table of §6; `required`/`additionalProperties` are left to the server.
 */
export function draftPatch(before: JsonSchema, draft: NodeDraft): JsonPatchOperation[] {
  const out: JsonPatchOperation[] = [];
  keywordOps(before, draft, '', out);
  fieldOps(before, draft.fields, '', out);
  return out;
}
