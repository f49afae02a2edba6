import express, { type Response, type Router } from 'express';
import { methodNotAllowed } from '../http/routeFallbacks.ts';
import { GET_TOKEN_SCRIPT_PATH, getTokenHtml, getTokenScript } from './getTokenPage.ts';

/** system-api.md §6: no inline script, nothing but same-origin resources, never framed, no forms. */
export const GET_TOKEN_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function send(res: Response, contentType: string, body: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', GET_TOKEN_CSP);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.status(200).end(body);
}

/**
 * `GET /get-token` (system-api.md §6, auth.md §11): a public page whose same-origin script asks the system GraphQL
 * API for an access token with the browser's session cookies. Mount at the root.
 */
export function createGetTokenRouter(): Router {
  const router = express.Router();
  router
    .route('/get-token')
    .get((_req, res) => send(res, 'text/html; charset=utf-8', getTokenHtml))
    .all(methodNotAllowed(['GET']));
  router
    .route(GET_TOKEN_SCRIPT_PATH)
    .get((_req, res) => send(res, 'text/javascript; charset=utf-8', getTokenScript))
    .all(methodNotAllowed(['GET']));
  return router;
}
