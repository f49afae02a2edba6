import {
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

/** One `.graphql` file of the Admin UI: its path (for messages) and text. */
export type DocumentFile = { readonly file: string; readonly source: string };

/** A line `# @batch` right above an operation asks for a batch template (several copies in one request). */
const BATCH_MARK = /#\s*@batch\s*\n\s*(?:query|mutation)\s+([_A-Za-z][_0-9A-Za-z]*)/g;

function problem(file: string, error: GraphQLError): string {
  const at = error.locations?.[0];
  return `${file}${at ? `:${at.line}:${at.column}` : ''}: ${error.message}`;
}

export type Parsed = { readonly file: string; readonly document: DocumentNode; readonly batched: ReadonlySet<string> };

export function parseAll(files: readonly DocumentFile[]): { parsed: Parsed[]; problems: string[] } {
  const parsed: Parsed[] = [];
  const problems: string[] = [];
  for (const { file, source } of files) {
    try {
      const batched = new Set([...source.matchAll(BATCH_MARK)].map((match) => match[1] as string));
      parsed.push({ file, document: parse(source), batched });
    } catch (err) {
      problems.push(err instanceof GraphQLError ? problem(file, err) : `${file}: ${String(err)}`);
    }
  }
  return { parsed, problems };
}

export function fragmentsOf(parsed: readonly Parsed[]): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const { document } of parsed) {
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/** Fragment names an AST node spreads, directly or through other fragments. */
export function usedFragments(
  node: OperationDefinitionNode | FragmentDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  out = new Set<string>(),
): Set<string> {
  visit(node, {
    FragmentSpread(spread) {
      const name = spread.name.value;
      const fragment = fragments.get(name);
      if (out.has(name) || !fragment) return;
      out.add(name);
      usedFragments(fragment, fragments, out);
    },
  });
  return out;
}

/**
 * Problems of the Admin UI's GraphQL documents against the server's schema: syntax, every validation rule of the
 * GraphQL spec (unknown fields and arguments, wrong variable types, unused fragments...), duplicate operation or
 * fragment names across files, and operations without a name. Each names its file, line and column.
 */
export function documentProblems(schema: GraphQLSchema, files: readonly DocumentFile[]): string[] {
  const { parsed, problems } = parseAll(files);
  const fragments = fragmentsOf(parsed);
  const seen = new Map<string, string>();
  for (const { file, document } of parsed) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      const name = definition.name?.value;
      if (name === undefined) {
        problems.push(`${file}: every operation needs a name`);
        continue;
      }
      const other = seen.get(name);
      if (other !== undefined) problems.push(`${file}: "${name}" is also defined in ${other}`);
      seen.set(name, file);
    }
  }
  // Each operation is validated as the server receives it: with the fragments it uses, from whichever file.
  for (const { file, document } of parsed) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const used = [...usedFragments(definition, fragments)].map((name) => fragments.get(name) as FragmentDefinitionNode);
      const sent: DocumentNode = { kind: Kind.DOCUMENT, definitions: [definition, ...used] };
      problems.push(...validate(schema, sent, specifiedRules).map((error) => problem(file, error)));
    }
    const unused = document.definitions.filter(
      (definition): definition is FragmentDefinitionNode =>
        definition.kind === Kind.FRAGMENT_DEFINITION &&
        !parsed.some((p) =>
          p.document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && usedFragments(d, fragments).has(definition.name.value)),
        ),
    );
    for (const fragment of unused) problems.push(`${file}: fragment "${fragment.name.value}" is never used`);
  }
  for (const { file, document, batched } of parsed) {
    for (const name of batched) {
      const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
      if (!operation) problems.push(`${file}: "# @batch" marks "${name}", which is not an operation of this file`);
    }
  }
  return problems;
}
