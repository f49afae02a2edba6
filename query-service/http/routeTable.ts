import type { IncomingMessage } from 'node:http';
import { segmentsBelow } from './fastRoutes.ts';

/**
 * The HTTP surfaces by path: the one table the express mounts, the fast-route matcher (generated-endpoint requests
 * answered without express's router) and write forwarding of a process without the command role (operations.md §2)
 * are derived from. Express and forwarding match paths case-insensitively; the fast matcher takes only the exact
 * lower-case spelling (anything else goes through express, which answers it the same way).
 */
export type Surface = {
  /** Where it is mounted (lower case, no trailing slash). */
  readonly mount: string;
  /**
   * Which paths belong to it: `below` the mount only (`/api/…`); the mount itself and `below` (`/mcp`, `/mcp/…`);
   * or just the `mount` (with or without a trailing slash: `/graphql`, `/graphql/`).
   */
  readonly paths: 'below' | 'mountAndBelow' | 'mount';
  /**
   * Which of its requests a process without the command role forwards to COMMAND_URL: `every` one; `writes` (POST,
   * PUT, PATCH, DELETE, except the `…/rows/query` reads); or GraphQL `mutations` (POSTs whose document selects one).
   */
  readonly commandRole: 'every' | 'writes' | 'mutations';
  /** Generated endpoints: the path parameters after the mount, in order, and the name of the rest of the path. */
  readonly params?: readonly string[];
  readonly tail?: string;
  /** Methods the fast matcher answers (generated endpoints only); without it, express routes every request. */
  readonly fastMethods?: 'all' | readonly string[];
};

/** Where the generated APIs, their GraphiQL and Swagger UI files are mounted. */
export const GENERATED_MOUNT = '/endpoint';

const ENDPOINT_PARAMS = ['org', 'project', 'branch', 'mode'] as const;

/** In matching order: the first surface whose paths hold a request's path is its surface. */
export const SURFACES = {
  mcp: { mount: '/mcp', paths: 'mountAndBelow', commandRole: 'every' },
  auth: { mount: '/api/auth', paths: 'mountAndBelow', commandRole: 'every' },
  systemRest: { mount: '/api', paths: 'below', commandRole: 'writes' },
  systemGraphql: { mount: '/graphql', paths: 'mount', commandRole: 'mutations' },
  generatedRest: {
    mount: `${GENERATED_MOUNT}/rest`,
    paths: 'below',
    commandRole: 'writes',
    params: ENDPOINT_PARAMS,
    tail: 'rest',
    fastMethods: 'all',
  },
  generatedGraphql: {
    mount: `${GENERATED_MOUNT}/graphql`,
    paths: 'below',
    commandRole: 'mutations',
    params: ENDPOINT_PARAMS,
    fastMethods: ['GET', 'POST'],
  },
} as const satisfies Record<string, Surface>;

const SURFACE_LIST: readonly Surface[] = Object.values(SURFACES);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Reads sent as POST (generated-api.md `…/rows/query`): they stay with the process that received them. */
const READ_BY_POST = /\/rows\/query\/?$/;

function holds(surface: Surface, path: string): boolean {
  const { mount } = surface;
  if (surface.paths === 'mount') return path === mount || path === `${mount}/`;
  if (path.startsWith(`${mount}/`)) return true;
  return surface.paths === 'mountAndBelow' && path === mount;
}

/** The surface a path belongs to (case-insensitively, as express routes), or null. */
export function surfaceOf(path: string): Surface | null {
  const p = path.toLowerCase();
  return SURFACE_LIST.find((surface) => holds(surface, p)) ?? null;
}

/** Where a request goes in a process without the `command` role. */
export type Destination = 'command' | 'graphql' | 'local';

/**
 * operations.md §2: `/mcp`, `/api/auth/*` and REST writes under `/api/` and `/endpoint/rest/` (except
 * `…/rows/query`) belong to the command role; GraphQL POSTs depend on their document (`graphql`: the caller reads it).
 * A mutation over GET is answered 405 by the local GraphQL handler, as the command process would.
 */
export function destinationOf(method: string, path: string): Destination {
  const surface = surfaceOf(path);
  if (surface === null) return 'local';
  switch (surface.commandRole) {
    case 'every':
      return 'command';
    case 'writes':
      return WRITE_METHODS.has(method) && !READ_BY_POST.test(path.toLowerCase()) ? 'command' : 'local';
    case 'mutations':
      return method === 'POST' ? 'graphql' : 'local';
  }
}

/** The express route of a generated surface below GENERATED_MOUNT: `/rest/:org/:project/:branch/:mode{/*rest}`. */
export function expressRouteOf(surface: Surface): string {
  const params = (surface.params ?? []).map((name) => `/:${name}`).join('');
  return `${mountBelowGenerated(surface)}${params}${surface.tail === undefined ? '' : `{/*${surface.tail}}`}`;
}

/** The mount of a generated surface below GENERATED_MOUNT (`/rest`). */
export function mountBelowGenerated(surface: Surface): string {
  return surface.mount.slice(GENERATED_MOUNT.length);
}

/**
 * The route parameters express would set for `req` on `surface`'s route, when the fast matcher takes it: a method it
 * answers fast, the exact lower-case mount, the parameters' number of segments (more when it has a tail), no empty
 * segment or trailing slash, valid encoding. Null leaves the request to express.
 */
export function fastParamsOf(surface: Surface, req: IncomingMessage): Record<string, string | string[]> | null {
  const methods = surface.fastMethods;
  if (methods === undefined || (methods !== 'all' && !methods.includes(req.method ?? ''))) return null;
  const segments = segmentsBelow(req.url ?? '', `${surface.mount}/`);
  const names = surface.params ?? [];
  if (segments === null || segments.length < names.length) return null;
  if (surface.tail === undefined && segments.length > names.length) return null;
  const params: Record<string, string | string[]> = {};
  names.forEach((name, i) => (params[name] = segments[i] as string));
  if (surface.tail !== undefined && segments.length > names.length) params[surface.tail] = segments.slice(names.length);
  return params;
}
