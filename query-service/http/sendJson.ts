import type { Response } from 'express';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sends `body` as JSON with the given status. HTTP `HEAD` gets the same headers (with Content-Length) and no body:
 * node's http layer drops the body of a HEAD response.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body) ?? 'null');
}

/** Sends JSON text already serialized (see sendJson). */
export function sendJsonText(res: Response, status: number, payload: string): void {
  res.status(status);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

const serialized = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)`, kept per object: values served again as the same object (rows and pages of committed
 * revisions, which the data source keeps) are serialized once. Fresh objects cost one WeakMap entry that goes with
 * them.
 */
export function jsonTextOf(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialized.set(value, text);
  }
  return text;
}
