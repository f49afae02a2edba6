import type { TableModel } from '../../contracts/index.ts';
import { camel, fieldSafe, lowerFirst, pascal, pluralWords, singularWords, splitWords, upperFirst } from './nameWords.ts';
import { assignNestedNames, type NestedTypeNames } from './nestedNames.ts';

/** A table as the generated APIs see it: id, creation time (collision order) and compiled schema. */
export type GeneratedTable = { readonly id: string; readonly createdAt: string; readonly model: TableModel };

export type NamingMode = 'normal' | 'fallback';

/** The four base names of a table (generated-api.md §2.2). */
export type TableBaseNames = { readonly T: string; readonly Ts: string; readonly s: string; readonly pl: string };

export type TableTypeNames = ReturnType<typeof tableTypeNames>;
export type TableRootFieldNames = ReturnType<typeof rootFieldNames>;
export type TableComponentNames = ReturnType<typeof componentNames>;
export type TableOperationIds = ReturnType<typeof operationIds>;

export type TableNames = TableBaseNames & {
  readonly tableId: string;
  readonly mode: NamingMode;
  /** GraphQL type names of §5.1. */
  readonly types: TableTypeNames;
  /** GraphQL root field names as served (with GRAPHQL_ROOT_FIELD_PREFIX applied when set, §6). */
  readonly rootFields: TableRootFieldNames;
  /** OpenAPI component schema names of §8.2. */
  readonly components: TableComponentNames;
  /** OpenAPI operationIds of §8.4. */
  readonly operationIds: TableOperationIds;
  /** Nested object type names by data path (`nestedKey`), e.g. `shipping_address`, `lines.*`. */
  readonly nested: ReadonlyMap<string, NestedTypeNames>;
};

export type ProjectNames = {
  /** The project prefix `P`. */
  readonly prefix: string;
  readonly deleteResult: string;
  readonly bulkResult: string;
  /** The changes feed root field (changes.md §3): `_changes`, or camel(P) + `_changes` with GRAPHQL_ROOT_FIELD_PREFIX. */
  readonly changesField: string;
  /** Every table by id, in creation order (creation time, then id). */
  readonly tables: ReadonlyMap<string, TableNames>;
};

export type NamingOptions = { readonly rootFieldPrefix: boolean };

/** The shared component schemas of every generated OpenAPI document (§8.2). */
export const SHARED_COMPONENT_NAMES = [
  'PageInfo',
  'RowsQuery',
  'WhereInput',
  'OrderByInput',
  'StringFilter',
  'DateTimeFilter',
  'BooleanFilter',
  'JsonFilter',
  'PatchOperation',
  'DeleteResult',
  'BulkResult',
  'EndpointInfo',
  'TableList',
  'Error',
  'ErrorDetail',
  'RowChange',
  'RowChangeConnection',
  'RowChangeEdge',
  'FieldChange',
  'TableChange',
  'RowChangeCounts',
] as const;

const RESERVED_NAMES: readonly string[] = [
  'Query',
  'Mutation',
  'PageInfo',
  'DateTime',
  'JSON',
  'StringFilter',
  'DateTimeFilter',
  'BooleanFilter',
  'JsonFilter',
  'JsonOrderByInput',
  'FilterMode',
  'SortDirection',
  'SortType',
  'PatchOp',
  'PatchOperationInput',
  '_Service',
  '_Entity',
  '_Any',
  '_service',
  '_entities',
  ...SHARED_COMPONENT_NAMES,
  'getEndpoint',
  'listTables',
  // The `_changes` field and its types besides the shared components (changes.md §3).
  '_changes',
  'RowChangeKind',
];

/** `P` = Pascal(singular(words(project))); `_` before a digit; `_` without words. */
export function projectPrefix(projectName: string): string {
  const words = splitWords(projectName);
  if (words.length === 0) return '_';
  const prefix = pascal(singularWords(words));
  return /^[0-9]/.test(prefix) ? `_${prefix}` : prefix;
}

/** The reserved set of §2.2 for prefix `P` (names starting with `__` are reserved too: see isReservedName). */
export function reservedNames(prefix: string): ReadonlySet<string> {
  return new Set([...RESERVED_NAMES, `${prefix}DeleteResult`, `${prefix}BulkResult`]);
}

export function isReservedName(reserved: ReadonlySet<string>, name: string): boolean {
  return reserved.has(name) || name.startsWith('__');
}

function normalBase(tableId: string): TableBaseNames | null {
  const words = splitWords(tableId);
  if (words.length === 0) return null;
  const singular = singularWords(words);
  const plural = pluralWords(words);
  const T = pascal(singular);
  const PascalPlural = pascal(plural);
  const Ts = PascalPlural === T ? `${T}List` : PascalPlural;
  const s = camel(singular);
  const camelPlural = camel(plural);
  const pl = camelPlural === s ? `${s}List` : camelPlural;
  return { T, Ts, s: fieldSafe(s), pl: fieldSafe(pl) };
}

/** Fallback mode: `b` = the id with `[^A-Za-z0-9_]` -> `_`, leading underscores collapsed, plus the suffix. */
function fallbackBase(tableId: string, suffix: string): TableBaseNames {
  const b = tableId.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '_') + suffix;
  const T = upperFirst(b);
  const s = fieldSafe(lowerFirst(b));
  return { T, Ts: `${T}List`, s, pl: `${s}List` };
}

function tableTypeNames(P: string, { T, Ts }: TableBaseNames) {
  return {
    entity: `${P}${T}`,
    node: `${P}${T}Node`,
    flat: `${P}${T}Flat`,
    connection: `${P}${T}Connection`,
    edge: `${P}${T}Edge`,
    flatConnection: `${P}${T}FlatConnection`,
    flatEdge: `${P}${T}FlatEdge`,
    getInput: `${P}Get${Ts}Input`,
    whereInput: `${P}${Ts}WhereInput`,
    orderByInput: `${P}${Ts}OrderByInput`,
    createInput: `${P}Create${T}Input`,
    updateInput: `${P}Update${T}Input`,
    patchInput: `${P}Patch${T}Input`,
    createManyInput: `${P}Create${Ts}Input`,
    updateManyInput: `${P}Update${Ts}Input`,
    patchManyInput: `${P}Patch${Ts}Input`,
    deleteManyInput: `${P}Delete${Ts}Input`,
  } as const;
}

/** Root fields of §5.1; with the prefix (§6) queries become camel(P)+T/Ts and mutations verb+P+T/Ts. */
function rootFieldNames(P: string, { T, Ts, s, pl }: TableBaseNames, prefixed: boolean) {
  const q = prefixed ? lowerFirst(P) : '';
  const m = prefixed ? P : '';
  return {
    one: prefixed ? `${q}${T}` : s,
    many: prefixed ? `${q}${Ts}` : pl,
    oneFlat: prefixed ? `${q}${T}Flat` : `${s}Flat`,
    manyFlat: prefixed ? `${q}${Ts}Flat` : `${pl}Flat`,
    create: `create${m}${T}`,
    update: `update${m}${T}`,
    patch: `patch${m}${T}`,
    delete: `delete${m}${T}`,
    createMany: `create${m}${Ts}`,
    updateMany: `update${m}${Ts}`,
    patchMany: `patch${m}${Ts}`,
    deleteMany: `delete${m}${Ts}`,
  } as const;
}

function componentNames(P: string, { T, Ts }: TableBaseNames) {
  return {
    data: `${P}${T}`,
    row: `${P}${T}Row`,
    connection: `${P}${T}Connection`,
    edge: `${P}${T}Edge`,
    createRequest: `${P}Create${T}Request`,
    updateRequest: `${P}Update${T}Request`,
    patchRequest: `${P}Patch${T}Request`,
    createManyRequest: `${P}Create${Ts}Request`,
    updateManyRequest: `${P}Update${Ts}Request`,
    patchManyRequest: `${P}Patch${Ts}Request`,
    deleteManyRequest: `${P}Delete${Ts}Request`,
  } as const;
}

function operationIds({ T, Ts }: TableBaseNames) {
  return {
    getSchema: `get${T}Schema`,
    list: `list${Ts}`,
    query: `query${Ts}`,
    get: `get${T}`,
    create: `create${T}`,
    update: `update${T}`,
    patch: `patch${T}`,
    delete: `delete${T}`,
    bulkCreate: `bulkCreate${Ts}`,
    bulkUpdate: `bulkUpdate${Ts}`,
    bulkPatch: `bulkPatch${Ts}`,
    bulkDelete: `bulkDelete${Ts}`,
  } as const;
}

/** A table's name set: its type names, (unprefixed) root fields, component names and operationIds. */
export function tableNameSet(P: string, base: TableBaseNames): ReadonlySet<string> {
  return new Set([
    ...Object.values(tableTypeNames(P, base)),
    ...Object.values(rootFieldNames(P, base, false)),
    ...Object.values(componentNames(P, base)),
    ...Object.values(operationIds(base)),
  ]);
}

/** Creation order: creation time, then id. */
export function byCreationOrder(a: GeneratedTable, b: GeneratedTable): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

type Resolved = { readonly table: GeneratedTable; readonly mode: NamingMode; readonly base: TableBaseNames };

function resolveBases(P: string, ordered: readonly GeneratedTable[], reserved: ReadonlySet<string>): Resolved[] {
  const initial = ordered.map((table) => {
    const normal = normalBase(table.id);
    return normal === null
      ? { table, mode: 'fallback' as const, base: fallbackBase(table.id, '') }
      : { table, mode: 'normal' as const, base: normal };
  });
  // (a) intersecting name sets, or a name set meeting the reserved set: fallback mode.
  const counts = new Map<string, number>();
  const sets = initial.map((entry) => tableNameSet(P, entry.base));
  for (const set of sets) for (const name of set) counts.set(name, (counts.get(name) ?? 0) + 1);
  const afterA = initial.map((entry, i) => {
    const set = sets[i] ?? new Set<string>();
    const clash = [...set].some((name) => (counts.get(name) ?? 0) > 1 || isReservedName(reserved, name));
    return clash && entry.mode === 'normal' ? { ...entry, mode: 'fallback' as const, base: fallbackBase(entry.table.id, '') } : entry;
  });
  // (b) in creation order, names still taken: fallback plus the smallest free suffix 2, 3, ...
  const taken = new Set<string>();
  const isFree = (set: ReadonlySet<string>) => ![...set].some((name) => taken.has(name) || isReservedName(reserved, name));
  return afterA.map((entry) => {
    let resolved: Resolved = entry;
    let set = tableNameSet(P, entry.base);
    for (let suffix = 2; !isFree(set); suffix++) {
      resolved = { table: entry.table, mode: 'fallback', base: fallbackBase(entry.table.id, String(suffix)) };
      set = tableNameSet(P, resolved.base);
    }
    for (const name of set) taken.add(name);
    return resolved;
  });
}

/**
 * The deterministic names of generated-api.md §2 for a project's tables (any order in; creation order out), with
 * root fields prefixed per GRAPHQL_ROOT_FIELD_PREFIX (§6). Collisions are decided on the unprefixed names, so the
 * type names and OpenAPI names do not depend on the deployment setting.
 */
export function computeNames(projectName: string, tables: readonly GeneratedTable[], options: NamingOptions): ProjectNames {
  const P = projectPrefix(projectName);
  const reserved = reservedNames(P);
  const resolved = resolveBases(P, [...tables].sort(byCreationOrder), reserved);
  const tableLevel = new Set<string>();
  for (const { base } of resolved) for (const name of tableNameSet(P, base)) tableLevel.add(name);
  const nested = assignNestedNames(
    P,
    resolved.map(({ table, base }) => ({ model: table.model, T: base.T })),
    (name) => tableLevel.has(name) || isReservedName(reserved, name),
  );
  const out = new Map<string, TableNames>();
  resolved.forEach(({ table, mode, base }, i) => {
    out.set(table.id, {
      ...base,
      tableId: table.id,
      mode,
      types: tableTypeNames(P, base),
      rootFields: rootFieldNames(P, base, options.rootFieldPrefix),
      components: componentNames(P, base),
      operationIds: operationIds(base),
      nested: nested[i] ?? new Map(),
    });
  });
  const changesField = options.rootFieldPrefix ? `${lowerFirst(P)}_changes` : '_changes';
  return { prefix: P, deleteResult: `${P}DeleteResult`, bulkResult: `${P}BulkResult`, changesField, tables: out };
}
