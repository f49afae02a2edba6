import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { notFound } from '../../http/routeFallbacks.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import type { ServedTables } from '../dataSource/servedTables.ts';
import type { ServedEndpoint } from '../endpoint/servedEndpoint.ts';
import { createBoundedCache } from '../../../contracts/index.ts';
import { buildOpenApi, type OpenApiDocument } from '../rest/buildOpenApi.ts';

/** Where the shared Swagger UI files are served (below the `/endpoint` mount). */
export const SWAGGER_ASSETS_PATH = '/endpoint/swagger-ui';

/**
 * OpenAPI documents of generated REST endpoints, cached like the GraphQL schemas: by revision, schema hash of its
 * tables, mode, URL segments and visibility (the document lists anonymous access on public projects), and the row
 * ids its examples name (they follow the draft's rows and the caller's table scope).
 */
export function createOpenApiCache(max = 100, maxBytes = 32 * 1024 * 1024) {
  const documents = createBoundedCache<string, OpenApiDocument>({ maxEntries: max, maxBytes });
  return {
    get(served: ServedEndpoint, tables: ServedTables, exampleRowIds: ReadonlyMap<string, string>): OpenApiDocument {
      const { address, project } = served;
      const examples = [...exampleRowIds].flat();
      const key = [served.revisionId, tables.hash, served.mode, address.branch, address.segment, project.isPublic, ...examples].join('\0');
      let document = documents.get(key);
      if (document === undefined) {
        document = buildOpenApi({
          org: address.org,
          projectName: project.name,
          branchName: address.branch,
          segment: address.segment,
          revisionId: served.revisionId,
          mode: served.mode,
          isPublic: project.isPublic,
          tables: tables.list.map((table) => table.generated),
          exampleRowIds,
        });
        documents.set(key, document);
      }
      return document;
    },
  };
}

export type OpenApiCache = ReturnType<typeof createOpenApiCache>;

// Swagger UI needs inline styles and data: images; everything else is same-origin.
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Swagger UI files served (everything else of swagger-ui-dist, e.g. its petstore index.html, is not). */
const ASSET = /^\/(swagger-ui\.css|swagger-ui-bundle\.js|swagger-ui-standalone-preset\.js|favicon-(16x16|32x32)\.png)$/;

/** The page's own start script: the document is `openapi.json` beside the page, with the page's query (api_key). */
const INIT_SCRIPT = `'use strict';
window.addEventListener('load', function () {
  var url = window.location.pathname.replace(/\\/docs\\/?$/, '/openapi.json') + window.location.search;
  window.ui = SwaggerUIBundle({
    url: url,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout'
  });
});
`;

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function pageHtml(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SWAGGER_ASSETS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${SWAGGER_ASSETS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${SWAGGER_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${SWAGGER_ASSETS_PATH}/swagger-ui-standalone-preset.js"></script>
<script src="${SWAGGER_ASSETS_PATH}/strata-docs.js"></script>
</body>
</html>
`;
}

/**
 * Swagger UI of generated REST endpoints (generated-api.md §8.5): `B/docs` answers a page (after the endpoint's
 * read access) whose bundled, same-origin assets and start script live under SWAGGER_ASSETS_PATH; the script loads
 * `B/openapi.json`, with the browser's cookies or the credentials entered in the UI. No validator badge.
 */
export function createSwaggerDocs(): { readonly assets: Router; sendPage(res: Response, title: string): void } {
  const assets = express.Router();
  assets.get('/strata-docs.js', (_req, res) => {
    setRouteTemplate(res, `${SWAGGER_ASSETS_PATH}/:asset`);
    res.status(200).type('text/javascript').send(INIT_SCRIPT);
  });
  assets.use(
    (req: Request, res: Response, next: NextFunction) => {
      setRouteTemplate(res, `${SWAGGER_ASSETS_PATH}/:asset`);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !ASSET.test(req.path)) {
        notFound(req, res);
        return;
      }
      next();
    },
    ...swaggerUi.serve,
  );
  return {
    assets,
    sendPage(res, title) {
      res.setHeader('Content-Security-Policy', CSP);
      res.status(200).type('html').send(pageHtml(title));
    },
  };
}
