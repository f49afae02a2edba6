import type { Request, Response } from 'express';
import './expressTypes.ts';

/** Label of requests no route handled (404s), so that labels never contain raw paths. */
export const UNMATCHED_ROUTE = '(unmatched)';

function joinTemplate(base: string, path: unknown): string {
  const tail = typeof path === 'string' ? path : Array.isArray(path) ? path.map(String).join('|') : String(path);
  const joined = `${base.replace(/\/$/, '')}${tail.startsWith('/') ? '' : '/'}${tail}`;
  return joined === '' ? '/' : joined;
}

/**
 * Records the template of the route that handles `req` (mount path + route path, e.g. `/api/projects/:id`) in
 * `res.locals.routeTemplate`, the moment express's router selects the route. Routers should be mounted at static
 * prefixes (parameters belong in route paths), because a mount path contributes its concrete value; handlers mounted
 * without a route (GraphQL, MCP) call setRouteTemplate themselves.
 */
export function trackRouteTemplate(req: Request, res: Response): void {
  let current: unknown = undefined;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (route: unknown) => {
      current = route;
      const path = (route as { path?: unknown } | undefined)?.path;
      if (path !== undefined) res.locals.routeTemplate = joinTemplate(req.baseUrl, path);
    },
  });
}

/** Sets the route template explicitly (for handlers without an express route). */
export function setRouteTemplate(res: Response, template: string): void {
  res.locals.routeTemplate = template;
}

/** Template recorded for this response, or `(unmatched)`. */
export function routeTemplateOf(res: Response): string {
  return res.locals.routeTemplate ?? UNMATCHED_ROUTE;
}
