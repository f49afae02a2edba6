import type { Subject } from '../../../contracts/index.ts';

/** What a generated REST request does (generated-api.md §7). */
export type RestAction =
  | 'endpoint'
  | 'openapi'
  | 'docs'
  | 'tables'
  | 'schema'
  | 'list'
  | 'create'
  | 'query'
  | 'getRow'
  | 'updateRow'
  | 'patchRow'
  | 'deleteRow'
  | 'bulkCreate'
  | 'bulkUpdate'
  | 'bulkPatch'
  | 'bulkDelete'
  | 'changes'
  | 'changedTables'
  | 'export'
  | 'import';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Entry = { readonly action: RestAction; readonly write: boolean };

/** A matched path of a generated REST endpoint: its methods, the read access it needs, and its ids. */
export type RestPath = {
  /** Route template for logs and metrics (never the raw path). */
  readonly template: string;
  /** Subject of the read access (auth.md §9) every method of the path needs first. */
  readonly readSubject: Subject;
  readonly methods: Readonly<Partial<Record<Method, Entry>>>;
  readonly tableId: string | null;
  readonly rowId: string | null;
};

export const REST_BASE_TEMPLATE = '/endpoint/rest/:org/:project/:branch/:mode';

const read = (action: RestAction): Entry => ({ action, write: false });
const write = (action: RestAction): Entry => ({ action, write: true });

function path(
  template: string,
  readSubject: Subject,
  methods: RestPath['methods'],
  tableId: string | null = null,
  rowId: string | null = null,
): RestPath {
  return { template: `${REST_BASE_TEMPLATE}${template}`, readSubject, methods, tableId, rowId };
}

const rowMethods = { GET: read('getRow'), PUT: write('updateRow'), PATCH: write('patchRow'), DELETE: write('deleteRow') } as const;

/**
 * The path below `B` (decoded segments). `POST rows/query` and every method but GET on `rows/bulk` are their own
 * routes; every other use of the segment after `rows/` addresses a row id (so `GET rows/bulk` reads row "bulk").
 */
export function matchRestPath(segments: readonly string[]): RestPath | null {
  const [first, table, third, rowId, ...rest] = segments;
  if (first === undefined) return path('', 'Endpoint', { GET: read('endpoint') });
  if (table === undefined) {
    if (first === 'openapi.json') return path('/openapi.json', 'Endpoint', { GET: read('openapi') });
    if (first === 'docs') return path('/docs', 'Endpoint', { GET: read('docs') });
    if (first === 'tables') return path('/tables', 'Table', { GET: read('tables') });
    if (first === 'changes') return path('/changes', 'Row', { GET: read('changes') });
    return null;
  }
  if (first === 'changes') {
    return table === 'tables' && third === undefined ? path('/changes/tables', 'Row', { GET: read('changedTables') }) : null;
  }
  if (first !== 'tables' || third === undefined || rest.length > 0) return null;
  if (third === 'schema' && rowId === undefined) return path('/tables/:table/schema', 'Table', { GET: read('schema') }, table);
  if (third === 'export' && rowId === undefined) return path('/tables/:table/export', 'Row', { GET: read('export') }, table);
  if (third === 'import' && rowId === undefined) return path('/tables/:table/import', 'Row', { POST: write('import') }, table);
  if (third !== 'rows') return null;
  if (rowId === undefined) return path('/tables/:table/rows', 'Row', { GET: read('list'), POST: write('create') }, table);
  if (rowId === 'query') return path('/tables/:table/rows/query', 'Row', Object.assign({}, rowMethods, { POST: read('query') }), table, rowId);
  if (rowId === 'bulk') {
    const bulk = { POST: write('bulkCreate'), PUT: write('bulkUpdate'), PATCH: write('bulkPatch'), DELETE: write('bulkDelete') };
    return path('/tables/:table/rows/bulk', 'Row', { GET: read('getRow'), ...bulk }, table, rowId);
  }
  return path('/tables/:table/rows/:rowId', 'Row', rowMethods, table, rowId);
}

/** `Allow` of a path: the methods it has in this mode (reads only on HEAD and pinned endpoints), HEAD after GET. */
export function allowOf(restPath: RestPath, writable: boolean): string {
  const methods: string[] = [];
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    const entry = restPath.methods[method];
    if (entry === undefined || (entry.write && !writable)) continue;
    methods.push(method);
    if (method === 'GET') methods.push('HEAD');
  }
  return methods.join(', ');
}

/** The entry for a request method (HEAD is GET), or undefined when the path does not define it. */
export function entryOf(restPath: RestPath, method: string): Entry | undefined {
  const key = method === 'HEAD' ? 'GET' : method;
  return Object.hasOwn(restPath.methods, key) ? restPath.methods[key as Method] : undefined;
}
