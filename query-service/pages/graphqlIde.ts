import type { Response, Router } from 'express';
import { methodNotAllowed } from '../http/routeFallbacks.ts';
import { setRouteTemplate } from '../http/routeTemplate.ts';

/** The page loads only its own same-origin script and styles. */
export const IDE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type IdePageOptions = {
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
export function ideHtml(page: IdePageOptions): string {
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
