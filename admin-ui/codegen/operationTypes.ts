import {
  Kind,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  print,
  stripIgnoredCharacters,
  typeFromAST,
  visit,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { BATCH_INDEX } from '../src/api/operation.ts';
import { documentProblems, fragmentsOf, parseAll, usedFragments, type DocumentFile } from './documentProblems.ts';

/**
 * JSON scalars the app reads as a known shape: `Type.field` -> a type of `src/api/types.ts`. Everything else of type
 * JSON is `unknown` and narrowed where it is read.
 */
export const JSON_FIELD_TYPES: Readonly<Record<string, string>> = {
  'Table.schema': 'JsonSchema',
  'ApiKey.permissions': 'ApiKeyPermissions',
};

const SCALARS: Readonly<Record<string, string>> = {
  ID: 'string',
  String: 'string',
  Int: 'number',
  Float: 'number',
  Boolean: 'boolean',
  DateTime: 'string',
  JSON: 'unknown',
};

/** Writes TypeScript types while walking the documents; the named types (enums, inputs) it met are kept once. */
class Emitter {
  readonly named = new Map<string, string>();
  readonly imports = new Set<string>();
  readonly schema: GraphQLSchema;
  constructor(schema: GraphQLSchema) {
    this.schema = schema;
  }

  enumType(name: string): string {
    const type = this.schema.getType(name);
    if (!this.named.has(name) && isEnumType(type)) {
      this.named.set(
        name,
        `export type ${name} = ${type
          .getValues()
          .map((v) => `'${v.name}'`)
          .join(' | ')};`,
      );
    }
    return name;
  }

  leaf(type: GraphQLNamedType, override?: string): string {
    if (override !== undefined) {
      this.imports.add(override);
      return override;
    }
    if (isEnumType(type)) return this.enumType(type.name);
    if (isScalarType(type)) {
      const ts = SCALARS[type.name];
      if (ts === undefined) throw new Error(`no TypeScript type for scalar ${type.name}`);
      return ts;
    }
    throw new Error(`not a leaf type: ${type.name}`);
  }

  input(type: GraphQLInputType): string {
    if (isNonNullType(type)) return this.input(type.ofType);
    // Inputs are only read: read-only arrays let a form pass its own (read-only) lists.
    if (isListType(type)) return `readonly ${wrap(this.input(type.ofType))}[]`;
    if (isInputObjectType(type)) {
      if (!this.named.has(type.name)) {
        this.named.set(type.name, '');
        const fields = Object.values(type.getFields()).map((field) => {
          const required = isNonNullType(field.type) && field.defaultValue === undefined;
          return `${field.name}${required ? '' : '?'}: ${this.input(field.type)}${isNonNullType(field.type) ? '' : ' | null'}`;
        });
        this.named.set(type.name, `export type ${type.name} = { ${fields.join('; ')} };`);
      }
      return type.name;
    }
    return this.leaf(type);
  }

  output(type: GraphQLOutputType, nodes: readonly FieldNode[], fragments: ReadonlyMap<string, FragmentDefinitionNode>, override?: string): string {
    if (isNonNullType(type)) return this.output(type.ofType, nodes, fragments, override).replace(/ \| null$/, '');
    const nullable = (ts: string): string => `${ts} | null`;
    if (isListType(type)) return nullable(`${wrap(this.output(type.ofType, nodes, fragments, override))}[]`);
    if (isObjectType(type))
      return nullable(
        this.selection(
          type,
          nodes.map((n) => n.selectionSet as SelectionSetNode),
          fragments,
        ),
      );
    return nullable(this.leaf(type, override));
  }

  /** The object type a set of selection sets on `parent` answers with (merged like the executor merges fields). */
  selection(parent: GraphQLObjectType, sets: readonly SelectionSetNode[], fragments: ReadonlyMap<string, FragmentDefinitionNode>): string {
    const fields = new Map<string, { nodes: FieldNode[]; conditional: boolean }>();
    const collect = (set: SelectionSetNode, conditional: boolean): void => {
      for (const selection of set.selections) {
        const isConditional = conditional || (selection.directives ?? []).some((d) => d.name.value === 'include' || d.name.value === 'skip');
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const entry = fields.get(key) ?? { nodes: [], conditional: isConditional };
          entry.nodes.push(selection);
          entry.conditional &&= isConditional;
          fields.set(key, entry);
          continue;
        }
        const condition = selection.kind === Kind.INLINE_FRAGMENT ? selection.typeCondition : fragments.get(selection.name.value)?.typeCondition;
        if (condition && condition.name.value !== parent.name) throw new Error(`fragments on other types than ${parent.name} are not supported`);
        const inner = selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : fragments.get(selection.name.value)?.selectionSet;
        if (inner) collect(inner, isConditional);
      }
    };
    for (const set of sets) collect(set, false);
    const members = [...fields].map(([key, { nodes, conditional }]) => {
      const name = (nodes[0] as FieldNode).name.value;
      if (name === '__typename') return `${key}: '${parent.name}'`;
      const definition = parent.getFields()[name];
      if (!definition) throw new Error(`${parent.name} has no field ${name}`);
      const override = JSON_FIELD_TYPES[`${parent.name}.${name}`];
      return `${key}${conditional ? '?' : ''}: ${this.output(definition.type, nodes, fragments, override)}`;
    });
    return `{ ${members.join('; ')} }`;
  }
}

/** Code-point order, the same on every machine (localeCompare depends on the ICU data). */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parenthesises a union (a `|` outside any braces or parentheses) or a read-only array before `[]`. */
function wrap(ts: string): string {
  if (ts.startsWith('readonly ')) return `(${ts})`;
  let depth = 0;
  for (let i = 0; i < ts.length; i++) {
    const c = ts[i];
    if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') depth--;
    else if (c === '|' && depth === 0) return `(${ts})`;
  }
  return ts;
}

function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Variables renamed `$x` -> `$x__I__` and root fields aliased `b__I___<key>`: one copy of a batched operation. */
function batchTemplate(operation: OperationDefinitionNode): { definitions: string; selections: string } {
  const renamed = visit(operation, {
    Variable: (node) => ({ ...node, name: { ...node.name, value: `${node.name.value}${BATCH_INDEX}` } }),
  });
  const selections = renamed.selectionSet.selections.map((selection) => {
    if (selection.kind !== Kind.FIELD) throw new Error(`${operation.name?.value}: a batched operation selects plain root fields only`);
    const key = selection.alias?.value ?? selection.name.value;
    return print({ ...selection, alias: { kind: Kind.NAME, value: `b${BATCH_INDEX}_${key}` } });
  });
  return {
    definitions: stripIgnoredCharacters((renamed.variableDefinitions ?? []).map((d) => print(d)).join(', ')),
    selections: stripIgnoredCharacters(selections.join(' ')),
  };
}

/**
 * The TypeScript module of the Admin UI's operations: for each operation `X` the result type `XResult`, the
 * variables type `XVariables` and `XDocument` (its text with the fragments it uses, typed with both), plus the enum
 * and input types they mention. Throws on documents that do not validate (see documentProblems).
 */
export function generateOperationModule(schema: GraphQLSchema, files: readonly DocumentFile[], generator: string): string {
  const problems = documentProblems(schema, files);
  if (problems.length > 0) throw new Error(`GraphQL documents do not match the schema:\n${problems.join('\n')}`);
  const { parsed } = parseAll(files);
  const fragments = fragmentsOf(parsed);
  const emitter = new Emitter(schema);
  const operations: string[] = [];
  const sorted = parsed.flatMap(({ document, batched }) =>
    document.definitions
      .filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)
      .map((operation) => ({ operation, batched })),
  );
  sorted.sort((a, b) => byName(a.operation.name?.value ?? '', b.operation.name?.value ?? ''));
  for (const { operation, batched } of sorted) {
    const name = operation.name?.value as string;
    const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    if (!root || operation.operation === 'subscription') throw new Error(`${name}: only queries and mutations are supported`);
    const variables = (operation.variableDefinitions ?? []).map((definition) => {
      const type = typeFromAST(schema, definition.type) as GraphQLInputType;
      const required = isNonNullType(type) && definition.defaultValue === undefined;
      return `${definition.variable.name.value}${required ? '' : '?'}: ${emitter.input(type)}${isNonNullType(type) ? '' : ' | null'}`;
    });
    const used = [...usedFragments(operation, fragments)].sort().map((f) => fragments.get(f) as FragmentDefinitionNode);
    const source = stripIgnoredCharacters(print({ kind: Kind.DOCUMENT, definitions: [operation, ...used] }));
    const result = emitter.selection(root, [operation.selectionSet], fragments);
    const fields = [`name: ${quoted(name)}`, `source: ${quoted(source)}`];
    if (batched.has(name)) {
      const template = batchTemplate(operation);
      const fragmentText = stripIgnoredCharacters(used.map((f) => print(f)).join(' '));
      fields.push(
        `batch: { kind: '${operation.operation}', variables: [${(operation.variableDefinitions ?? []).map((d) => quoted(d.variable.name.value)).join(', ')}], ` +
          `definitions: ${quoted(template.definitions)}, selections: ${quoted(template.selections)}, fragments: ${quoted(fragmentText)} }`,
      );
    }
    operations.push(
      [
        `export type ${name}Result = ${result};`,
        `export type ${name}Variables = ${variables.length === 0 ? 'Record<string, never>' : `{ ${variables.join('; ')} }`};`,
        `export const ${name}Document: Operation<${name}Result, ${name}Variables> = { ${fields.join(', ')} };`,
      ].join('\n'),
    );
  }
  const named = [...emitter.named].sort(([a], [b]) => byName(a, b)).map(([, text]) => text);
  const imports = [...emitter.imports].sort();
  return [
    `// Generated by ${generator} from src/api/operations/*.graphql and the system schema: do not edit.`,
    `// Change a .graphql file, then run \`npm run generate:admin-ui\` (tests/architecture/adminUiDocuments.unit.test.ts checks both).`,
    '/* eslint-disable max-lines -- one result type, variables type and document per operation */',
    `import type { Operation } from '../operation.ts';`,
    ...(imports.length > 0 ? [`import type { ${imports.join(', ')} } from '../types.ts';`] : []),
    '',
    ...named,
    '',
    operations.join('\n\n'),
    '',
  ].join('\n');
}
