import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { methodNotAllowed, notFound } from '../http/routeFallbacks.ts';
import { setRouteTemplate } from '../http/routeTemplate.ts';

/**
 * The GraphQL IDE pages. One page: the minimal IDE (an HTML page, a same-origin script and stylesheet) of the system
 * GraphQL endpoint, also served for generated endpoints where the GraphiQL build is missing; generated endpoints get
 * GraphiQL when it was built.
 */

/** The page loads only its own same-origin script and styles. */
const IDE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type IdePageOptions = {
  /** Where `ide.js` and `ide.css` are served. */
  readonly assets: string;
  readonly title: string;
  readonly heading: string;
  /** The GraphQL URL the page POSTs to. */
  readonly endpoint: string;
  /** The query shown when the page opens. */
  readonly query: string;
};

/** The minimal IDE page, shared by the system GraphQL endpoint and generated endpoints without the GraphiQL build. */
function ideHtml(page: IdePageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<link rel="stylesheet" href="${escapeHtml(page.assets)}/ide.css">
<script src="${escapeHtml(page.assets)}/ide.js" defer></script>
</head>
<body>
<header><h1>${escapeHtml(page.heading)}</h1><span id="status"></span></header>
<main data-endpoint="${escapeHtml(page.endpoint)}">
<section>
<label for="query">Query</label>
<textarea id="query" spellcheck="false">${escapeHtml(page.query)}</textarea>
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

const ideScript = `'use strict';
document.addEventListener('DOMContentLoaded', function () {
  var endpoint = document.querySelector('main').getAttribute('data-endpoint');
  var $ = function (id) { return document.getElementById(id); };
  function parse(id) {
    var text = $(id).value.trim();
    return text === '' ? {} : JSON.parse(text);
  }
  $('run').addEventListener('click', function () {
    var body, headers;
    try {
      body = { query: $('query').value, variables: parse('variables') };
      headers = Object.assign({ 'Content-Type': 'application/json' }, parse('headers'));
    } catch (err) {
      $('result').textContent = 'Invalid JSON: ' + err.message;
      return;
    }
    $('status').textContent = 'running…';
    fetch(endpoint, { method: 'POST', credentials: 'same-origin', headers: headers, body: JSON.stringify(body) })
      .then(function (res) {
        $('status').textContent = 'HTTP ' + res.status;
        return res.text();
      })
      .then(function (text) {
        try { text = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: show as is */ }
        $('result').textContent = text;
      })
      .catch(function (err) {
        $('status').textContent = 'failed';
        $('result').textContent = String(err);
      });
  });
});
`;

const ideStyles = `body { font-family: system-ui, sans-serif; margin: 0; background: #f7f7f8; color: #222; }
header { display: flex; gap: 1rem; align-items: baseline; padding: 0.5rem 1rem; background: #1f2933; color: #fff; }
header h1 { font-size: 1.1rem; margin: 0; }
main { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; padding: 1rem; }
section { display: flex; flex-direction: column; gap: 0.4rem; }
textarea, pre { font-family: ui-monospace, monospace; font-size: 0.85rem; border: 1px solid #ccd; border-radius: 4px; padding: 0.5rem; background: #fff; }
textarea { min-height: 16rem; }
textarea.small { min-height: 4rem; }
pre { min-height: 30rem; margin: 0; overflow: auto; white-space: pre-wrap; }
button { align-self: flex-start; padding: 0.4rem 1.2rem; }
`;

function sendAsset(res: Response, type: string, body: string): void {
  res.status(200);
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * A small bundled GraphQL IDE (system-api.md §3: no external resources): an HTML page whose same-origin script
 * POSTs the query to `base` with the browser's cookies and shows the JSON answer. Mounts `/ide.js` and `/ide.css`
 * on `router` (mounted at `base`); `sendPage` answers GET `base` without a query.
 */
export function createGraphqlIde(router: Router, base: string, title: string): { sendPage(res: Response): void } {
  const html = ideHtml({ assets: base, title, heading: title, endpoint: base, query: 'query {\n  me { id username role }\n}' });
  router
    .route('/ide.js')
    .get((_req, res) => {
      setRouteTemplate(res, `${base}/ide.js`);
      sendAsset(res, 'text/javascript', ideScript);
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/ide.css')
    .get((_req, res) => {
      setRouteTemplate(res, `${base}/ide.css`);
      sendAsset(res, 'text/css', ideStyles);
    })
    .all(methodNotAllowed(['GET']));
  return {
    sendPage(res) {
      res.setHeader('Content-Security-Policy', IDE_CSP);
      sendAsset(res, 'text/html', html);
    },
  };
}

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
