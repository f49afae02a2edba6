import type { Response } from 'express';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sends `body` as JSON with the given status. HTTP `HEAD` gets the same headers (with Content-Length) and no body:
 * node's http layer drops the body of a HEAD response.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body) ?? 'null';
  res.status(status);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}
