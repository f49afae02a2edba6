import type { TableModelNode } from '../../contracts/index.ts';

/**
 * What a field's GraphQL and OpenAPI descriptions say about its `x-unique` / `x-index` keywords (domain.md §5.5),
 * so a client reading either surface knows which fields are looked up cheaply and which values must be unique.
 */
export function indexNote(node: TableModelNode): string | undefined {
  if (node.kind !== 'string' && node.kind !== 'number' && node.kind !== 'boolean') return undefined;
  if (node.kind !== 'boolean' && node.unique === true) {
    return 'Unique (x-unique): no two rows of the table hold the same value ("" is exempt); indexed.';
  }
  return node.indexed === true ? 'Indexed (x-index).' : undefined;
}

/** Int32 range of GraphQL `Int`. */
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** An integer node is GraphQL `Int` only when both bounds are declared and fit in 32 bits (domain.md §5.5). */
export function isGraphqlInt(node: TableModelNode): boolean {
  return (
    node.kind === 'number' &&
    node.integer === true &&
    node.minimum !== undefined &&
    node.maximum !== undefined &&
    node.minimum >= INT_MIN &&
    node.maximum <= INT_MAX
  );
}
