import type { IncomingMessage } from 'node:http';

/**
 * The routes whose body is a streamed file (portability.md §2-§3), read by their handler instead of the JSON body
 * parser: table import (system and generated REST) and bundle import. Matched on the whole path, so a row whose id
 * is `import` (`…/rows/import`) keeps its JSON body.
 */
const STREAMED: readonly RegExp[] = [
  /^\/api\/revision\/[^/]+\/table\/[^/]+\/import\/?$/,
  /^\/api\/organization\/[^/]+\/project\/[^/]+\/branch\/[^/]+\/bundle\/?$/,
  /^\/endpoint\/rest\/[^/]+\/[^/]+\/[^/]+\/[^/]+\/tables\/[^/]+\/import\/?$/,
];

export function isStreamedUpload(req: IncomingMessage & { readonly originalUrl?: string }): boolean {
  if (req.method !== 'POST') return false;
  const url = req.originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return STREAMED.some((pattern) => pattern.test(path));
}
