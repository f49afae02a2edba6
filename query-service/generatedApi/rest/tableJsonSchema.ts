import { SYSTEM_REFS, type SystemRefUrn, type TableModel, type TableModelNode } from '../../../contracts/index.ts';
import type { JsonSchema } from '../../http/openApi.ts';
import { indexNote } from '../fieldNotes.ts';

const SYSTEM_REF_DESCRIPTIONS: Readonly<Record<SystemRefUrn, string>> = {
  [SYSTEM_REFS.rowId]: 'the row id',
  [SYSTEM_REFS.rowCreatedAt]: 'when the row was created',
  [SYSTEM_REFS.rowUpdatedAt]: 'when the row was last updated',
  [SYSTEM_REFS.rowHash]: 'SHA-256 hex of the canonical JSON of the stored row data',
  [SYSTEM_REFS.rowSchemaHash]: 'SHA-256 hex of the canonical JSON of the table schema',
};

function annotations(node: TableModelNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node.title !== undefined) out.title = node.title;
  if (node.description !== undefined) out.description = node.description;
  if (node.deprecated !== undefined) out.deprecated = node.deprecated;
  return out;
}

function systemRefSchema(node: Extract<TableModelNode, { kind: 'systemRef' }>): JsonSchema {
  const own = annotations(node);
  const naming = `System field ${node.ref}: ${SYSTEM_REF_DESCRIPTIONS[node.ref]}, filled by the server on every read (any string is accepted on write and stored as "").`;
  const timestamp = node.ref === SYSTEM_REFS.rowCreatedAt || node.ref === SYSTEM_REFS.rowUpdatedAt;
  return {
    type: 'string',
    ...own,
    description: typeof own.description === 'string' ? `${own.description}\n\n${naming}` : naming,
    readOnly: true,
    ...(timestamp ? { format: 'date-time' } : {}),
  };
}

/** `x-unique` / `x-index` kept as extensions and named in the description (domain.md §5.5). */
function indexKeywords(node: TableModelNode, out: Record<string, unknown>): void {
  const note = indexNote(node);
  if (note === undefined) return;
  out.description = typeof out.description === 'string' ? `${out.description}\n\n${note}` : note;
  if ((node.kind === 'string' || node.kind === 'number') && node.unique === true) out['x-unique'] = true;
  out['x-index'] = true;
}

function bound(out: Record<string, unknown>, key: string, value: number | undefined): void {
  if (value !== undefined) out[key] = value;
}

/**
 * The JSON Schema 2020-12 of one data node for OpenAPI (generated-api.md §8.2): the subset's keywords kept,
 * `foreignKey` as `x-foreign-key`, system refs as read-only strings with a description naming them.
 */
export function nodeJsonSchema(node: TableModelNode): JsonSchema {
  switch (node.kind) {
    case 'systemRef':
      return systemRefSchema(node);
    case 'string': {
      const out: Record<string, unknown> = { type: 'string', ...annotations(node) };
      if (node.readOnly !== undefined) out.readOnly = node.readOnly;
      out.default = node.default;
      bound(out, 'minLength', node.minLength);
      bound(out, 'maxLength', node.maxLength);
      if (node.enum !== undefined) out.enum = [...node.enum];
      if (node.pattern !== undefined) out.pattern = node.pattern;
      if (node.format !== undefined) out.format = node.format;
      if (node.contentMediaType !== undefined) out.contentMediaType = node.contentMediaType;
      if (node.foreignKey !== undefined) out['x-foreign-key'] = node.foreignKey;
      indexKeywords(node, out);
      return out;
    }
    case 'number':
    case 'boolean': {
      const out: Record<string, unknown> = {
        type: node.kind === 'number' && node.integer === true ? 'integer' : node.kind,
        ...annotations(node),
        ...(node.readOnly !== undefined ? { readOnly: node.readOnly } : {}),
        default: node.default,
      };
      if (node.kind === 'number') {
        bound(out, 'minimum', node.minimum);
        bound(out, 'maximum', node.maximum);
      }
      indexKeywords(node, out);
      return out;
    }
    case 'array': {
      const out: Record<string, unknown> = { type: 'array', ...annotations(node), items: nodeJsonSchema(node.items) };
      bound(out, 'minItems', node.minItems);
      bound(out, 'maxItems', node.maxItems);
      return out;
    }
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      for (const { name, node: child } of node.properties) properties[name] = nodeJsonSchema(child);
      return {
        type: 'object',
        ...annotations(node),
        properties,
        required: node.properties.map((property) => property.name),
        additionalProperties: false,
      };
    }
  }
}

/** The component schema `{P}{T}`: the table schema transformed recursively, nested objects inline. */
export function tableJsonSchema(model: TableModel): JsonSchema {
  return nodeJsonSchema(model.root);
}
