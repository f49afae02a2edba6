import { readFile, stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { methodNotAllowed, notFound } from '../http/routeFallbacks.ts';

export type AdminUiOptions = {
  /**
   * The built application (`admin-ui/dist`, resolved by deploy). When it holds no index.html (the build was
   * skipped), `/admin/` answers 503 with the command that builds it.
   */
  readonly dir: string;
};

/** admin-ui.md §1: scripts, styles, images and connections from this origin only; no inline code, no framing. */
export const ADMIN_UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names content-hashed files `<name>-<hash>.<ext>` under assets/: safe to cache for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NOT_BUILT = 'The Admin UI has not been built. Run `npm run build:admin-ui` (npm install does this) and reload this page.\n';

function setHtmlHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', ADMIN_UI_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
}

/** `rel` inside `dir`, or null for anything that would leave it. */
function inside(dir: string, rel: string): string | null {
  const full = normalize(join(dir, rel));
  return full.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`) ? full : null;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the Admin UI single-page application (admin-ui.md §1): `GET /` redirects to `/admin/`; every path below
 * `/admin/` that is not a built file gets index.html (history-API routing, never cached, with the security
 * headers); files under `/admin/assets/` carry long-lived cache headers; a missing asset is a JSON 404 rather
 * than HTML. index.html is read per request so a rebuild needs no restart.
 */
export function createAdminUiRouter(options: AdminUiOptions): Router {
  const dir = normalize(options.dir);
  const router = express.Router({ strict: true });
  const onlyGet = methodNotAllowed(['GET']);

  const sendIndex = async (res: Response): Promise<void> => {
    let html: string;
    try {
      html = await readFile(join(dir, 'index.html'), 'utf8');
    } catch {
      setHtmlHeaders(res);
      res.status(503).type('text/plain; charset=utf-8').setHeader('Retry-After', '60');
      res.send(NOT_BUILT);
      return;
    }
    setHtmlHeaders(res);
    res.status(200).type('text/html; charset=utf-8').send(html);
  };

  const serveFile = async (req: Request, res: Response, rel: string, cacheControl: string): Promise<boolean> => {
    const full = inside(dir, rel);
    if (full === null || !(await isFile(full))) return false;
    res.setHeader('Cache-Control', cacheControl);
    await new Promise<void>((resolve, reject) => {
      res.sendFile(full, { dotfiles: 'deny', lastModified: true, etag: true, cacheControl: false }, (err) => (err ? reject(err) : resolve()));
    });
    return true;
  };

  router
    .route('/')
    .get((_req, res) => res.redirect(302, '/admin/'))
    .all(onlyGet);
  router
    .route('/admin')
    .get((_req, res) => res.redirect(302, '/admin/'))
    .all(onlyGet);
  router.all('/admin/{*rest}', async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return onlyGet(req, res, () => {});
    let rel: string;
    try {
      rel = decodeURIComponent(req.path.slice('/admin/'.length));
    } catch {
      notFound(req, res);
      return;
    }
    if (rel.startsWith('assets/')) {
      if (!(await serveFile(req, res, rel, IMMUTABLE))) notFound(req, res);
      return;
    }
    // Other built files (favicon) are not content-hashed: cache briefly. Anything else is an app route.
    if (rel !== '' && rel !== 'index.html' && !rel.includes('/') && (await serveFile(req, res, rel, 'public, max-age=3600'))) return;
    await sendIndex(res);
  });
  return router;
}
