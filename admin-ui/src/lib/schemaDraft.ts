import type { JsonSchema } from '../api/types.ts';

/** What a schema node is (domain.md §5.1); `ref` is a system `$ref` field. */
export type NodeKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'ref';

/** A schema node being edited: its keywords (default, description, enum, ...), and its fields or items. */
export type NodeDraft = {
  readonly kind: NodeKind;
  /** Every keyword except `type`, `properties`, `items`, `required`, `additionalProperties` (kept by the draft). */
  readonly keywords: Readonly<Record<string, unknown>>;
  readonly fields: readonly FieldDraft[];
  readonly items: NodeDraft | null;
};

/** A property of an object node. `origin` is its name in the stored schema (null when added), so renames are moves. */
export type FieldDraft = { readonly key: number; readonly origin: string | null; readonly name: string; readonly node: NodeDraft };

export const SYSTEM_REFS = [
  'urn:jsonschema:io:strata:row-id-schema:1.0.0',
  'urn:jsonschema:io:strata:row-created-at-schema:1.0.0',
  'urn:jsonschema:io:strata:row-updated-at-schema:1.0.0',
  'urn:jsonschema:io:strata:row-hash-schema:1.0.0',
  'urn:jsonschema:io:strata:row-schema-hash-schema:1.0.0',
] as const;

const STRUCTURE = new Set(['type', 'properties', 'items', 'required', 'additionalProperties']);
let nextKey = 1;

export function kindOf(node: JsonSchema): NodeKind {
  if (node.$ref !== undefined) return 'ref';
  return node.type === 'number' || node.type === 'integer' || node.type === 'boolean' || node.type === 'object' || node.type === 'array'
    ? node.type
    : 'string';
}

export function toDraft(node: JsonSchema): NodeDraft {
  const kind = kindOf(node);
  const keywords = Object.fromEntries(Object.entries(node).filter(([key]) => !STRUCTURE.has(key)));
  const fields =
    kind === 'object'
      ? Object.entries(node.properties ?? {}).map(([name, child]) => ({ key: nextKey++, origin: name, name, node: toDraft(child) }))
      : [];
  return { kind, keywords, fields, items: kind === 'array' && node.items ? toDraft(node.items) : null };
}

/** A fresh node of `kind`, keeping the description (and title) of the node it replaces. */
export function newNode(kind: NodeKind, from?: NodeDraft): NodeDraft {
  const kept = Object.fromEntries(Object.entries(from?.keywords ?? {}).filter(([key]) => key === 'description' || key === 'title'));
  const defaults: Record<NodeKind, Record<string, unknown>> = {
    string: { default: '' },
    number: { default: 0 },
    integer: { default: 0 },
    boolean: { default: false },
    object: {},
    array: {},
    ref: { $ref: SYSTEM_REFS[0] },
  };
  return { kind, keywords: { ...defaults[kind], ...kept }, fields: [], items: kind === 'array' ? newNode('string') : null };
}

export function newField(name: string): FieldDraft {
  return { key: nextKey++, origin: null, name, node: newNode('string') };
}

/** The JSON Schema a draft stands for (`required` lists every property, domain.md §5.1 rule 2). */
export function toSchema(draft: NodeDraft): JsonSchema {
  switch (draft.kind) {
    case 'ref':
      return { ...draft.keywords };
    case 'object':
      return {
        type: 'object',
        ...draft.keywords,
        additionalProperties: false,
        required: draft.fields.map((field) => field.name),
        properties: Object.fromEntries(draft.fields.map((field) => [field.name, toSchema(field.node)])),
      };
    case 'array':
      return { type: 'array', ...draft.keywords, items: toSchema(draft.items ?? newNode('string')) };
    default:
      return { type: draft.kind, ...draft.keywords };
  }
}

/** `keywords` with `key` set, or removed when `value` is undefined. */
export function withKeyword(draft: NodeDraft, key: string, value: unknown): NodeDraft {
  const keywords = { ...draft.keywords };
  if (value === undefined) delete keywords[key];
  else keywords[key] = value;
  return { ...draft, keywords };
}

/** Problems the editor can see before asking the server: empty or repeated names, per object. */
export function nameProblems(draft: NodeDraft, pointer = ''): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const field of draft.fields) {
    const at = `${pointer}/properties/${field.name}`;
    if (field.name.trim() === '') out.set(`${pointer}/properties/#${field.key}`, 'Enter a name.');
    else if (seen.has(field.name)) out.set(`${pointer}/properties/#${field.key}`, `Another field is named "${field.name}".`);
    seen.add(field.name);
    for (const [key, message] of nameProblems(field.node, at)) out.set(key, message);
  }
  if (draft.items) for (const [key, message] of nameProblems(draft.items, `${pointer}/items`)) out.set(key, message);
  return out;
}
