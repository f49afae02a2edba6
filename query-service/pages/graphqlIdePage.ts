import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { IDE_CSP, createGraphqlIde, escapeHtml, ideHtml } from './graphqlIde.ts';
import { notFound } from '../http/routeFallbacks.ts';
import { setRouteTemplate } from '../http/routeTemplate.ts';

/** Where the IDE's files are served (below the `/endpoint` mount); the GraphiQL build uses it as its Vite base. */
export const IDE_ASSETS_PATH = '/endpoint/graphiql';

/**
 * GraphiQL needs inline styles (Monaco sets them) and loads its Monaco workers as same-origin module files; nothing
 * else leaves 'self'. The minimal page needs even less (IDE_CSP).
 */
const GRAPHIQL_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** The page of a generated endpoint without the GraphiQL build: the system GraphQL IDE's page on its endpoint. */
function minimalHtml(endpoint: string): string {
  return ideHtml({ assets: IDE_ASSETS_PATH, title: 'Strata GraphQL', heading: endpoint, endpoint, query: 'query {\n  _service { sdl }\n}' });
}

export type GraphqlIdePage = {
  /** `graphiql` when the bundled GraphiQL build was found, else the minimal page of the system GraphQL IDE. */
  readonly kind: 'graphiql' | 'minimal';
  /** Static files; mount at `/graphiql` below `/endpoint`. */
  readonly assets: Router;
  /** The page for the endpoint at `endpointPath` (the caller has checked read access). */
  send(res: Response, endpointPath: string): void;
};

function sendHtml(res: Response, csp: string, html: string): void {
  res.setHeader('Content-Security-Policy', csp);
  res.status(200).type('html').send(html);
}

/**
 * The IDE of generated GraphQL endpoints (generated-api.md §5.3: GraphiQL bundled with the product, no external
 * requests): the GraphiQL app built into `dir` (admin-ui/graphiql, `index.html` plus hashed `assets/`), given the
 * endpoint URL in a data attribute; POSTs go to that URL with the browser's cookies. Without a build (a checkout
 * where the postinstall build did not run) the minimal IDE page of the system GraphQL endpoint is served instead.
 */
export function createGraphqlIdePage(dir: string | null, log: Logger): GraphqlIdePage {
  const assets = express.Router();
  const index = dir === null ? null : join(dir, 'index.html');
  if (dir === null || index === null || !existsSync(index)) {
    log.warn({ dir }, 'GraphiQL build not found; generated GraphQL endpoints serve the minimal IDE page');
    createGraphqlIde(assets, IDE_ASSETS_PATH, 'Strata GraphQL');
    assets.use(notFound);
    return { kind: 'minimal', assets, send: (res, endpoint) => sendHtml(res, IDE_CSP, minimalHtml(endpoint)) };
  }
  const template = readFileSync(index, 'utf8');
  assets.use(
    '/assets',
    (_req, res, next) => {
      setRouteTemplate(res, `${IDE_ASSETS_PATH}/assets/:asset`);
      next();
    },
    express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }),
  );
  assets.use(notFound);
  return {
    kind: 'graphiql',
    assets,
    send: (res, endpoint) => sendHtml(res, GRAPHIQL_CSP, template.replace('data-endpoint=""', `data-endpoint="${escapeHtml(endpoint)}"`)),
  };
}
