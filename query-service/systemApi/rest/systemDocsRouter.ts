import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { methodNotAllowed, notFound } from '../../http/routeFallbacks.ts';
import { setRouteTemplate } from '../../http/routeTemplate.ts';
import { sendJson } from '../../http/sendJson.ts';

/** Swagger UI files served (everything else of swagger-ui-dist, e.g. its petstore index.html, is not). */
const ASSET = /^\/(swagger-ui\.css|swagger-ui-bundle\.js|swagger-ui-standalone-preset\.js|swagger-ui-init\.js|favicon-(16x16|32x32)\.png)$/;

// Swagger UI needs inline styles and data: images; everything else is same-origin.
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The public documentation of the system REST API (system-api.md §4.6), mounted at `base` (`/api`): `GET base`
 * is Swagger UI with bundled assets under `base/swagger-ui/` (no external requests, validator badge off) and
 * `GET base/openapi.json` the OpenAPI document.
 */
export function createSystemDocsRouter(base: string, document: Readonly<Record<string, unknown>>): Router {
  const documentUrl = `${base}/openapi.json`;
  const assetsUrl = `${base}/swagger-ui/`;
  const options = { swaggerUrl: documentUrl, swaggerOptions: { validatorUrl: null }, customSiteTitle: 'Strata system API', customCss: '' };
  // The page's asset links are relative to a trailing-slash URL; made absolute, the page works at `base` itself.
  const html = swaggerUi.generateHTML(undefined, options).replace(/(href|src)="\.\//g, `$1="${assetsUrl}`);
  const router = express.Router();

  router
    .route('/')
    .get((_req, res) => {
      res.setHeader('Content-Security-Policy', CSP);
      res.status(200).type('html').send(html);
    })
    .all(methodNotAllowed(['GET']));
  router
    .route('/openapi.json')
    .get((_req, res) => sendJson(res, 200, document))
    .all(methodNotAllowed(['GET']));
  router.use(
    '/swagger-ui',
    (req: Request, res: Response, next: NextFunction) => {
      setRouteTemplate(res, `${base}/swagger-ui/:asset`);
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !ASSET.test(req.path)) {
        notFound(req, res);
        return;
      }
      next();
    },
    ...swaggerUi.serveFiles(undefined, options),
  );
  return router;
}
