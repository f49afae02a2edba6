/**
 * A GraphQL operation of the Admin UI as generated into `generated/operations.ts` from `operations/*.graphql`: its
 * name and text, typed with its result and variables (never present at run time), and for operations marked
 * `# @batch` the template that repeats it several times in one request.
 */
export type Operation<TResult, TVariables> = {
  readonly name: string;
  readonly source: string;
  readonly batch?: BatchTemplate;
  /** Type-level only: the shape of `data` and of the variables. */
  readonly types?: { readonly result: TResult; readonly variables: TVariables };
};

/** One copy of a batched operation: variables renamed `$x` → `$x__I__`, root fields aliased `b__I___<key>`. */
export type BatchTemplate = {
  readonly kind: 'query' | 'mutation';
  readonly variables: readonly string[];
  readonly definitions: string;
  readonly selections: string;
  readonly fragments: string;
};

export type ResultOf<T> = T extends Operation<infer R, unknown> ? R : never;
export type VariablesOf<T> = T extends Operation<unknown, infer V> ? V : never;

/** Where a batch template holds the index of its copy (a valid part of a GraphQL name). */
export const BATCH_INDEX = '__I__';

const at = (text: string, index: number): string => text.split(BATCH_INDEX).join(`_${index}`);

/** The document and variables that run `operation` once per entry of `variables`, in one request. */
export function batchRequest<V>(
  name: string,
  template: BatchTemplate,
  variables: readonly V[],
): { source: string; variables: Record<string, unknown> } {
  const copies = variables.map((_, index) => index);
  const source =
    `${template.kind} ${name}${copies.length > 0 && template.definitions !== '' ? `(${copies.map((i) => at(template.definitions, i)).join(',')})` : ''}` +
    `{${copies.map((i) => at(template.selections, i)).join(' ')}}${template.fragments}`;
  const merged: Record<string, unknown> = {};
  variables.forEach((values, index) => {
    for (const key of template.variables) merged[`${key}_${index}`] = (values as Record<string, unknown>)[key];
  });
  return { source, variables: merged };
}

/** The answer of copy `index` of a batched request, under the keys of one copy. */
export function batchPart(data: Readonly<Record<string, unknown>>, index: number): Record<string, unknown> {
  const prefix = `b_${index}_`;
  return Object.fromEntries(
    Object.entries(data)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, value]) => [key.slice(prefix.length), value]),
  );
}
