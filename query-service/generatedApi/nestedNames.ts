import type { DataPath, ObjectNode, TableModel, TableModelNode } from '../../contracts/index.ts';
import { pascal, splitWords, upperFirst } from './nameWords.ts';

/** The GraphQL types of one nested object: entity form and Flat form. */
export type NestedTypeNames = { readonly type: string; readonly flat: string };

/** The key of a nested object in `TableNames.nested`: its data path joined by `.` (`lines.*`, `a.b`). */
export function nestedKey(path: DataPath): string {
  return path.join('.');
}

/** `F` = Pascal(words(property name)) without singularization (the name itself when it has no words). */
function propertyPart(name: string): string {
  const words = splitWords(name);
  return words.length === 0 ? upperFirst(name) : pascal(words);
}

type Assign = (path: DataPath, wanted: string) => string;

function visit(node: TableModelNode, path: DataPath, name: string, assign: Assign): void {
  if (node.kind === 'array') {
    visit(node.items, [...path, '*'], `${name}Item`, assign);
    return;
  }
  if (node.kind !== 'object' || node.properties.length === 0) return;
  const assigned = assign(path, name);
  visitProperties(node, path, assigned, assign);
}

function visitProperties(node: ObjectNode, path: DataPath, parentName: string, assign: Assign): void {
  for (const { name, node: child } of node.properties) visit(child, [...path, name], `${parentName}${propertyPart(name)}`, assign);
}

/**
 * Nested object type names of §2.2: `{P}{T}{F}` / `{P}{T}{F}Flat`, `Item` per array level, deeper levels appending
 * to their parent's name. A name meeting `isTaken` (table-level names, reserved set) or an earlier nested name gets
 * the smallest free suffix 2, 3, … (tables in the given order, properties in schema order, depth first). Objects
 * without properties are `JSON` and get no name.
 */
export function assignNestedNames(
  P: string,
  tables: readonly { readonly model: TableModel; readonly T: string }[],
  isTaken: (name: string) => boolean,
): ReadonlyMap<string, NestedTypeNames>[] {
  const used = new Set<string>();
  const blocked = (name: string) => used.has(name) || isTaken(name);
  return tables.map(({ model, T }) => {
    const names = new Map<string, NestedTypeNames>();
    const assign: Assign = (path, wanted) => {
      let type = wanted;
      for (let suffix = 2; blocked(type) || blocked(`${type}Flat`); suffix++) type = `${wanted}${suffix}`;
      used.add(type);
      used.add(`${type}Flat`);
      names.set(nestedKey(path), { type, flat: `${type}Flat` });
      return type;
    };
    visitProperties(model.root, [], `${P}${T}`, assign);
    return names;
  });
}
