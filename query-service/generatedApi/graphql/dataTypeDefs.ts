import { invariant, type DataPath, type ObjectNode, type TableModelNode } from '../../../contracts/index.ts';
import type { GeneratedTable, ProjectNames, TableNames } from '../naming.ts';
import { indexNote, isGraphqlInt } from '../fieldNotes.ts';
import { nestedKey } from '../nestedNames.ts';

/** What the data types of one schema need to know: every table's names, and which tables have GraphQL types. */
export type DataTypeContext = {
  readonly names: ProjectNames;
  /** Ids of tables whose root object has properties (the others are omitted from GraphQL). */
  readonly graphqlTables: ReadonlySet<string>;
};

type Annotated = { readonly title?: string; readonly description?: string; readonly deprecated?: boolean };

/** `title` and `description` as one GraphQL description (both: title, blank line, description). */
export function descriptionOf(node: Annotated): string | undefined {
  const parts = [node.title, node.description].filter((part): part is string => part !== undefined && part !== '');
  return parts.length === 0 ? undefined : parts.join('\n\n');
}

/** A description line for SDL (JSON string escapes are valid GraphQL string escapes). */
export function describe(text: string | undefined, indent = ''): string {
  return text === undefined ? '' : `${indent}${JSON.stringify(text)}\n`;
}

/**
 * The type an FK field has: the referenced entity (or Flat) type; the raw id as `String` when the referenced table
 * has no GraphQL type (its root object has no properties).
 */
export function foreignKeyTypeName(ctx: DataTypeContext, tableId: string, flat: boolean): string | null {
  const ref = ctx.names.tables.get(tableId);
  if (ref === undefined || !ctx.graphqlTables.has(tableId)) return null;
  return flat ? ref.types.flat : ref.types.entity;
}

/** The nullable GraphQL type of a data node (callers add `!`). */
export function outputTypeOf(ctx: DataTypeContext, table: TableNames, node: TableModelNode, path: DataPath, flat: boolean): string {
  switch (node.kind) {
    case 'string':
      return (node.foreignKey !== undefined ? foreignKeyTypeName(ctx, node.foreignKey, flat) : null) ?? 'String';
    case 'number':
      return isGraphqlInt(node) ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'systemRef':
      return 'String';
    case 'array':
      return `[${outputTypeOf(ctx, table, node.items, [...path, '*'], flat)}!]`;
    case 'object': {
      if (node.properties.length === 0) return 'JSON';
      const nested = table.nested.get(nestedKey(path));
      invariant(nested !== undefined, `nested type at ${nestedKey(path)} has a name`);
      return flat ? nested.flat : nested.type;
    }
  }
}

function objectTypeDef(ctx: DataTypeContext, table: TableNames, node: ObjectNode, path: DataPath, name: string, flat: boolean): string {
  const fields = node.properties.map(({ name: field, node: child }) => {
    const type = outputTypeOf(ctx, table, child, [...path, field], flat);
    const deprecated = child.deprecated === true ? ' @deprecated' : '';
    const note = indexNote(child);
    const described = note === undefined ? descriptionOf(child) : [descriptionOf(child), note].filter((part) => part !== undefined).join('\n\n');
    return `${describe(described, '  ')}  ${field}: ${type}!${deprecated}`;
  });
  return `${describe(descriptionOf(node))}type ${name} {\n${fields.join('\n')}\n}\n`;
}

function collectObjects(node: TableModelNode, path: DataPath, out: { node: ObjectNode; path: DataPath }[]): void {
  if (node.kind === 'array') collectObjects(node.items, [...path, '*'], out);
  if (node.kind !== 'object' || node.properties.length === 0) return;
  out.push({ node, path });
  for (const { name, node: child } of node.properties) collectObjects(child, [...path, name], out);
}

/** A GraphQL object type pair of one table: the root (entity / Flat) or a nested object (both forms). */
export type DataObjectType = { readonly node: ObjectNode; readonly path: DataPath; readonly type: string; readonly flat: string };

/** The root object and every nested object with properties, depth first in schema order. */
export function dataObjectTypes(table: GeneratedTable, names: TableNames): DataObjectType[] {
  const objects: { node: ObjectNode; path: DataPath }[] = [];
  collectObjects(table.model.root, [], objects);
  return objects.map(({ node, path }) => {
    if (path.length === 0) return { node, path, type: names.types.entity, flat: names.types.flat };
    const nested = names.nested.get(nestedKey(path));
    invariant(nested !== undefined, `nested type at ${nestedKey(path)} has a name`);
    return { node, path, type: nested.type, flat: nested.flat };
  });
}

/**
 * The entity type `{P}{T}`, the Flat type `{P}{T}Flat` and every nested object type (both forms) of one table:
 * one field per property, named as the property, descriptions from `title`/`description`, `@deprecated`.
 */
export function dataTypeDefs(ctx: DataTypeContext, table: GeneratedTable, names: TableNames): string {
  return dataObjectTypes(table, names)
    .flatMap(({ node, path, type, flat }) => [objectTypeDef(ctx, names, node, path, type, false), objectTypeDef(ctx, names, node, path, flat, true)])
    .join('\n');
}
