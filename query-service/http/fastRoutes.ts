import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * Requests a role answers without express's router (docs/reference/performance.md: the router is one of the largest fixed costs of
 * a generated-endpoint read). `match` returns the middleware chain the router would have run for the request —
 * the same functions, in the same order, with `req.params` set as the route would set them — or null to leave the
 * request to the express app. The caller runs the app-level middleware (request id, headers, logging, metrics)
 * first, gives req/res express's prototypes, and sends errors to the app's error handler, so behaviour, errors
 * and logs are those of the routed request.
 */
export type FastRoutes = {
  match(req: IncomingMessage): readonly RequestHandler[] | null;
};

/**
 * Path segments of `url` below `prefix` (which ends in `/`), decoded as express decodes route parameters; null
 * (leave it to the router) for a different prefix, an empty segment (including a trailing slash) or bad encoding.
 */
export function segmentsBelow(url: string, prefix: string): string[] | null {
  if (!url.startsWith(prefix)) return null;
  const question = url.indexOf('?');
  const path = question === -1 ? url.slice(prefix.length) : url.slice(prefix.length, question);
  const raw = path.split('/');
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === '') return null;
    if (!segment.includes('%')) {
      segments.push(segment);
      continue;
    }
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return null;
    }
  }
  return segments;
}
