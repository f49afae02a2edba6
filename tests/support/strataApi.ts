import assert from 'node:assert/strict';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

export type ApiReply = { readonly status: number; readonly body: Json };

export type StrataApi = {
  /** A call below `/api` with the current bearer token; `body` is sent as JSON. */
  call(method: string, path: string, body?: unknown): Promise<ApiReply>;
  /** `call`, asserting the status (200 unless told), answering the body. */
  ok(method: string, path: string, body?: unknown, status?: number): Promise<Json>;
};

/** The system REST API of a running server (a `strata serve` process), for suites that start one. */
export function strataApi(url: () => string, token: () => string | null): StrataApi {
  const api: StrataApi = {
    async call(method, path, body) {
      const bearer = token();
      const res = await fetch(`${url()}/api${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : JSON.parse(text) };
    },
    async ok(method, path, body, status = 200) {
      const reply = await api.call(method, path, body);
      assert.equal(reply.status, status, `${method} ${path}: ${JSON.stringify(reply.body)}`);
      return reply.body;
    },
  };
  return api;
}
