// The query GraphiQL opens with (admin-ui.md §3.1 polish): the rows of the endpoint's first table, found by a small
// introspection of the endpoint itself (generated-api.md §5.1: `{pl}(data: …): {P}{T}Connection!`).

type TypeRef = { kind: string; name: string | null; ofType?: TypeRef | null };
type Field = { name: string; type: TypeRef };

export const ROOT_FIELDS = `query StrataExampleRoot { __schema { queryType { fields { name type { kind name ofType { kind name } } } } } }`;
export const TYPE_FIELDS = `query StrataExampleType($name: String!) { __type(name: $name) { fields { name type { kind name ofType { kind name ofType { kind name } } } } } }`;
const SCALARS = new Set(['String', 'Float', 'Int', 'Boolean', 'ID', 'DateTime']);
const MAX_FIELDS = 6;

function named(type: TypeRef | null | undefined): TypeRef | null {
  let current = type ?? null;
  while (current && current.kind === 'NON_NULL') current = current.ofType ?? null;
  return current;
}

/** The first list root field of a table (`posts`, not `postsFlat`) and its entity type name (`BlogPost`). */
export function firstTableField(fields: readonly Field[]): { field: string; entity: string } | null {
  for (const field of fields) {
    const type = named(field.type);
    const name = type?.kind === 'OBJECT' ? type.name : null;
    if (name && name.endsWith('Connection') && !name.endsWith('FlatConnection'))
      return { field: field.name, entity: name.slice(0, -'Connection'.length) };
  }
  return null;
}

/**
 * The example document: the first rows with their scalar data fields (the whole row as `json` when none). The
 * operation has no name: GraphiQL sends the name it last parsed, and a document typed over the example and run at
 * once would otherwise be sent with `operationName` of the example ("Unknown operation named …").
 */
export function exampleQuery(field: string, entityFields: readonly Field[]): string {
  const scalars = entityFields.filter((f) => {
    const type = named(f.type);
    return type?.kind === 'SCALAR' && type.name !== null && SCALARS.has(type.name);
  });
  const data =
    scalars.length > 0
      ? ` data { ${scalars
          .slice(0, MAX_FIELDS)
          .map((f) => f.name)
          .join(' ')} }`
      : ' json';
  return `# The first rows of this endpoint's first table: run with Ctrl-Enter.
query {
  ${field}(data: { first: 10 }) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges {
      node { id updatedAt${data} }
    }
  }
}
`;
}

/** Asks the endpoint for its first table and builds the example; null when it has no table (or cannot be read). */
export async function loadExampleQuery(post: (query: string, variables?: Record<string, unknown>) => Promise<unknown>): Promise<string | null> {
  try {
    const root = (await post(ROOT_FIELDS)) as { data?: { __schema?: { queryType?: { fields?: Field[] } } } };
    const first = firstTableField(root.data?.__schema?.queryType?.fields ?? []);
    if (!first) return null;
    const entity = (await post(TYPE_FIELDS, { name: first.entity })) as { data?: { __type?: { fields?: Field[] } | null } };
    return exampleQuery(first.field, entity.data?.__type?.fields ?? []);
  } catch {
    return null;
  }
}
