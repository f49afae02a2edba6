import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { createGraphqlIde } from '../../graphql/graphqlIde.ts';
import { notFound } from '../../http/routeFallbacks.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';

/** Where the IDE's files are served (below the `/endpoint` mount); the GraphiQL build uses it as its Vite base. */
export const IDE_ASSETS_PATH = '/endpoint/graphiql';

/**
 * GraphiQL needs inline styles (Monaco sets them) and loads its Monaco workers as same-origin module files; nothing
 * else leaves 'self'. The minimal page needs even less.
 */
const GRAPHIQL_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
const MINIMAL_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function minimalHtml(endpoint: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Strata GraphQL</title>
<link rel="stylesheet" href="${IDE_ASSETS_PATH}/ide.css">
<script src="${IDE_ASSETS_PATH}/ide.js" defer></script>
</head>
<body>
<header><h1>${escapeHtml(endpoint)}</h1><span id="status"></span></header>
<main data-endpoint="${escapeHtml(endpoint)}">
<section>
<label for="query">Query</label>
<textarea id="query" spellcheck="false">query {\n  _service { sdl }\n}</textarea>
<label for="variables">Variables (JSON)</label>
<textarea id="variables" class="small" spellcheck="false">{}</textarea>
<label for="headers">Extra headers (JSON, e.g. {"Authorization": "Bearer …"})</label>
<textarea id="headers" class="small" spellcheck="false">{}</textarea>
<button id="run" type="button">Run</button>
</section>
<section><label for="result">Result</label><pre id="result"></pre></section>
</main>
</body>
</html>
`;
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
    return { kind: 'minimal', assets, send: (res, endpoint) => sendHtml(res, MINIMAL_CSP, minimalHtml(endpoint)) };
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
