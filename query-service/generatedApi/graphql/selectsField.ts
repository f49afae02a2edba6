import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

function selects(set: SelectionSetNode | undefined, name: string, info: GraphQLResolveInfo, seen: Set<string>): boolean {
  for (const selection of set?.selections ?? []) {
    switch (selection.kind) {
      case Kind.FIELD:
        if (selection.name.value === name) return true;
        break;
      case Kind.INLINE_FRAGMENT:
        if (selects(selection.selectionSet, name, info, seen)) return true;
        break;
      case Kind.FRAGMENT_SPREAD: {
        const fragmentName = selection.name.value;
        if (seen.has(fragmentName)) break;
        seen.add(fragmentName);
        if (selects(info.fragments[fragmentName]?.selectionSet, name, info, seen)) return true;
        break;
      }
    }
  }
  return false;
}

/**
 * Whether the current field's selection asks for the child field `name` (directly or through fragments). Errs on
 * the side of true: `@skip`/`@include` are not evaluated, so a conditionally skipped field still counts.
 */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  return info.fieldNodes.some((node) => selects(node.selectionSet, name, info, seen));
}
