import {
  GraphQLError,
  Kind,
  getNamedType,
  isInterfaceType,
  isObjectType,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { AppError } from '../../contracts/index.ts';

/** GraphQL limits of operations.md §7, shared by the system and the generated schemas. */
export const QUERY_LIMITS = {
  maxDepth: 12,
  /** Depth under `__schema`/`__type` (counting it): the IDEs' standard introspection query nests 15. */
  maxIntrospectionDepth: 20,
  maxAliases: 30,
  maxBytes: 100 * 1024,
  maxTokens: 10_000,
  maxCost: 100_000,
  /** Effective `first` of a connection field that does not set it. */
  defaultPageSize: 100,
  /**
   * Brackets (`{`, `[`, `(`) open at once in a document, checked before parsing: graphql-js parses recursively and
   * a document within the token limit can nest deep enough to overflow the stack. No document within the depth
   * limits needs more (20 introspection levels plus an argument literal as deep as a 64-level JSON value).
   */
  maxNesting: 100,
} as const;

export type QueryLimits = { readonly [K in keyof typeof QUERY_LIMITS]: number };

type Variables = Readonly<Record<string, unknown>>;
type Walk = {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Variables;
  readonly limits: QueryLimits;
};
type Measure = { readonly cost: number; readonly depth: number; readonly introspectionDepth: number };

function limitError(message: string): GraphQLError {
  // `http.status` makes Apollo answer 400 when this is thrown before execution; the formatter keeps the code.
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } } });
}

function valueOf(node: ValueNode | undefined, variables: Variables): unknown {
  if (node === undefined) return undefined;
  return node.kind === Kind.VARIABLE ? variables[node.name.value] : valueFromASTUntyped(node, variables);
}

/** `first` of a connection field: a `first` argument or `data.first`, literal or from variables; else the default. */
function effectiveFirst(field: FieldNode, walk: Walk): number {
  let first: unknown;
  for (const arg of field.arguments ?? []) {
    if (arg.name.value === 'first') first = valueOf(arg.value, walk.variables);
    if (arg.name.value === 'data') {
      const data = valueOf(arg.value, walk.variables);
      if (typeof data === 'object' && data !== null) first = (data as { first?: unknown }).first;
    }
  }
  return typeof first === 'number' && Number.isInteger(first) && first >= 0 ? first : walk.limits.defaultPageSize;
}

function isConnection(type: GraphQLOutputType | undefined): boolean {
  const named = type === undefined ? undefined : getNamedType(type);
  return isObjectType(named) && named.name.endsWith('Connection') && 'edges' in named.getFields();
}

/** Field depth of a selection set, fragments expanded (each once per path). */
function selectionDepth(walk: Walk, selectionSet: SelectionSetNode, visiting: Set<string>): number {
  let depth = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      depth = Math.max(depth, 1 + (selection.selectionSet ? selectionDepth(walk, selection.selectionSet, visiting) : 0));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      depth = Math.max(depth, selectionDepth(walk, selection.selectionSet, visiting));
    } else {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      depth = Math.max(depth, selectionDepth(walk, fragment.selectionSet, visiting));
      visiting.delete(name);
    }
  }
  return depth;
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/**
 * Cost (each field 1, a connection multiplies its selection by `first`) and depth; introspection costs nothing and
 * has a depth of its own (`__schema`/`__type` and everything under them).
 */
function measure(walk: Walk, selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, visiting: Set<string>): Measure {
  let cost = 0;
  let depth = 0;
  let introspectionDepth = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (INTROSPECTION_ROOTS.has(selection.name.value) && selection.selectionSet) {
        introspectionDepth = Math.max(introspectionDepth, 1 + selectionDepth(walk, selection.selectionSet, visiting));
      }
      if (selection.name.value.startsWith('__')) continue;
      const fields = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : undefined;
      const type = fields?.[selection.name.value]?.type;
      const inner = selection.selectionSet
        ? measure(walk, selection.selectionSet, type === undefined ? undefined : getNamedType(type), visiting)
        : { cost: 0, depth: 0, introspectionDepth: 0 };
      cost += 1 + (isConnection(type) ? effectiveFirst(selection, walk) * inner.cost : inner.cost);
      depth = Math.max(depth, 1 + inner.depth);
      introspectionDepth = Math.max(introspectionDepth, inner.introspectionDepth);
      continue;
    }
    let fragmentType = parent;
    let selections: SelectionSetNode;
    let name: string | null = null;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      selections = selection.selectionSet;
      if (selection.typeCondition) fragmentType = walk.schema.getType(selection.typeCondition.name.value) ?? undefined;
    } else {
      name = selection.name.value;
      const fragment = walk.fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      selections = fragment.selectionSet;
      fragmentType = walk.schema.getType(fragment.typeCondition.name.value) ?? undefined;
    }
    if (name !== null) visiting.add(name);
    const inner = measure(walk, selections, fragmentType, visiting);
    if (name !== null) visiting.delete(name);
    cost += inner.cost;
    depth = Math.max(depth, inner.depth);
    introspectionDepth = Math.max(introspectionDepth, inner.introspectionDepth);
  }
  return { cost, depth, introspectionDepth };
}

function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLNamedType | undefined {
  const type = schema.getRootType(operation.operation);
  return type ?? undefined;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

function defaultVariables(operation: OperationDefinitionNode): Variables {
  const out: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) out[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  return out;
}

/** Depth and cost of one operation with the given variables (defaults of the operation fill the gaps). */
export function measureOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables = {},
  limits: QueryLimits = QUERY_LIMITS,
): Measure {
  const walk: Walk = { schema, fragments: fragmentsOf(document), variables: { ...defaultVariables(operation), ...variables }, limits };
  return measure(walk, operation.selectionSet, rootType(schema, operation), new Set());
}

function depthAndCostErrors(measured: Measure, limits: QueryLimits): GraphQLError[] {
  const errors: GraphQLError[] = [];
  if (measured.depth > limits.maxDepth) errors.push(limitError(`Query depth ${measured.depth} exceeds the limit of ${limits.maxDepth}`));
  if (measured.introspectionDepth > limits.maxIntrospectionDepth) {
    errors.push(limitError(`Introspection depth ${measured.introspectionDepth} exceeds the limit of ${limits.maxIntrospectionDepth}`));
  }
  if (measured.cost > limits.maxCost) errors.push(limitError(`Query cost ${measured.cost} exceeds the limit of ${limits.maxCost}`));
  return errors;
}

/**
 * Validation rule for depth, aliases and cost (operations.md §7). Variables are unknown at validation (documents are
 * cached per query text), so a `first` from a variable counts with its default; assertOperationLimits re-checks the
 * cost with the request's variables.
 */
export function queryLimitsRule(limits: QueryLimits = QUERY_LIMITS): ValidationRule {
  return (context) => ({
    Document: {
      leave(document) {
        let aliases = 0;
        visit(document, { Field: (node) => void (node.alias ? aliases++ : undefined) });
        if (aliases > limits.maxAliases) {
          context.reportError(limitError(`Query has ${aliases} aliases, more than the limit of ${limits.maxAliases}`));
        }
        for (const definition of document.definitions) {
          if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
          for (const error of depthAndCostErrors(measureOperation(context.getSchema(), document, definition, {}, limits), limits)) {
            context.reportError(error);
          }
        }
      },
    },
  });
}

/**
 * Whether a request's variables can change the measure of a document's operations: only a variable inside a `first`
 * or `data` argument can (effectiveFirst). When none can, the validation rule already measured what the per-request
 * check would (same defaults, same walk), so that check can be skipped.
 */
export function limitsReadVariables(document: DocumentNode): boolean {
  let reads = false;
  visit(document, {
    Argument(node) {
      if (node.name.value !== 'first' && node.name.value !== 'data') return false;
      visit(node.value, { Variable: () => void (reads = true) });
      return false;
    },
  });
  return reads;
}

/** Per-request cost check with the request's variables; throws a QUERY_TOO_COMPLEX GraphQLError (HTTP 400). */
export function assertOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Variables | undefined,
  limits: QueryLimits = QUERY_LIMITS,
): void {
  const [error] = depthAndCostErrors(measureOperation(schema, document, operation, variables ?? {}, limits), limits);
  if (error) throw error;
}

/** Whether a GraphQL document opens more than `limit` brackets at once (strings and comments skipped); one pass. */
function nestsDeeperThan(query: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '#') {
      // A comment runs to the end of the line (\n, \r or both).
      while (i < query.length && query[i] !== '\n' && query[i] !== '\r') i++;
    } else if (c === '"') {
      const block = query.startsWith('"""', i);
      const close = block ? '"""' : '"';
      let end = query.indexOf(close, i + close.length);
      // Inside a block string only `\"""` escapes; inside a string every backslash escapes the next character.
      while (end >= 0 && query[end - 1] === '\\' && (block || isEscaped(query, end))) end = query.indexOf(close, end + 1);
      if (end < 0) return false;
      i = end + close.length - 1;
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > limit) return true;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return false;
}

function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === '\\') backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Document size and nesting limits, checked on the raw text before parsing (the token limit is the parser's
 * `maxTokens`).
 */
export function assertQueryText(query: unknown, limits: QueryLimits = QUERY_LIMITS): void {
  if (typeof query !== 'string') return;
  const bytes = Buffer.byteLength(query);
  if (bytes > limits.maxBytes) {
    throw new AppError('QUERY_TOO_COMPLEX', `Query document of ${bytes} bytes exceeds the limit of ${limits.maxBytes} bytes`);
  }
  if (nestsDeeperThan(query, limits.maxNesting)) {
    throw new AppError('QUERY_TOO_COMPLEX', `Query document nests deeper than the limit of ${limits.maxNesting} brackets`);
  }
}
