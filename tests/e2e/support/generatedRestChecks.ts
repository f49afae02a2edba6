import { createOpenApiChecker } from './openApiResponses.ts';
import type { Reply } from './systemHarness.ts';

const BASE = /^(\/endpoint\/rest\/[^/?]+\/[^/?]+\/[^/?]+\/[^/?]+)(\/[^?]*)?(?:\?.*)?$/;

/** The OpenAPI path of a request below `B` (routing precedence of generated-api.md §7), or null when undocumented. */
export function documentedPath(method: string, below: string): string | null {
  const segments = below.split('/').filter((s) => s !== '');
  const [first, table, third, rowId, ...rest] = segments;
  if (first === undefined) return '/';
  if (rest.length > 0) return null;
  if (first !== 'tables') return null;
  if (table === undefined) return '/tables';
  if (third === 'schema' && rowId === undefined) return `/tables/${table}/schema`;
  if (third !== 'rows') return null;
  if (rowId === undefined) return `/tables/${table}/rows`;
  if (rowId === 'query' && method === 'POST') return `/tables/${table}/rows/query`;
  if (rowId === 'bulk' && method !== 'GET' && method !== 'HEAD') return `/tables/${table}/rows/bulk`;
  return `/tables/${table}/rows/{rowId}`;
}

/**
 * Checks a generated REST answer against the OpenAPI document the endpoint serves at that moment (fetched with the
 * same credentials): when the document has the operation, it must document the status and its schema must accept
 * the body. Answers the document cannot describe (no document for the caller, an operation the mode lacks, 405) are
 * not checked.
 */
export async function checkGeneratedRest(
  fetchJson: (path: string, headers: Record<string, string>) => Promise<Reply>,
  method: string,
  path: string,
  headers: Record<string, string>,
  reply: Reply,
): Promise<void> {
  const match = BASE.exec(path);
  if (match === null || method === 'HEAD' || reply.status === 405 || reply.status >= 500) return;
  const [, base, below = ''] = match;
  const documented = documentedPath(method, below);
  if (documented === null) return;
  const document = await fetchJson(`${base}/openapi.json`, headers);
  if (document.status !== 200) return;
  const paths = document.body.paths as Record<string, Record<string, unknown>>;
  if (paths[documented]?.[method.toLowerCase()] === undefined) return;
  createOpenApiChecker(document.body)(method, documented, reply);
}
