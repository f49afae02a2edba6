import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import express, { type Request, type Response } from 'express';
import fc from 'fast-check';
import { GENERATED_MOUNT, SURFACES, destinationOf, expressRouteOf, fastParamsOf, surfaceOf } from './routeTable.ts';

const SEED = 20261128;
const generated = [SURFACES.generatedRest, SURFACES.generatedGraphql] as const;

/** What express's router, built from the table, sets as `req.params` for a request (null: no route matched). */
function expressParams(method: string, url: string): Promise<{ surface: string; params: Record<string, unknown> } | null> {
  const app = express.Router();
  const inner = express.Router();
  for (const surface of generated) {
    inner.all(expressRouteOf(surface), (req: Request, res: Response) => {
      (res as unknown as { found: unknown }).found = { surface: surface.mount, params: { ...req.params } };
      (res as unknown as { done: () => void }).done();
    });
  }
  app.use(GENERATED_MOUNT, inner);
  return new Promise((resolve, reject) => {
    const req = { method, url, originalUrl: url, headers: {} } as unknown as Request;
    const res = { done: () => resolve((res as unknown as { found: never }).found) } as unknown as Response;
    app(req, res, (err?: unknown) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(null)));
  });
}

function fastParams(method: string, url: string): { surface: string; params: Record<string, unknown> } | null {
  for (const surface of generated) {
    const params = fastParamsOf(surface, { method, url } as IncomingMessage);
    if (params !== null) return { surface: surface.mount, params };
  }
  return null;
}

describe('the fast matcher and the express routes, both derived from the route table', () => {
  test('law: whatever the fast matcher takes, express routes to the same surface with the same params', async () => {
    let hits = 0;
    const segment = fc.oneof(
      { arbitrary: fc.stringMatching(/^[a-z0-9_-]{1,6}$/), weight: 8 },
      { arbitrary: fc.constantFrom('r%2D7', 'a%20b', 'Caps', '%E0%A4%A', ''), weight: 1 },
    );
    const url = fc.record({
      prefix: fc.oneof(
        { arbitrary: fc.constantFrom('/endpoint/rest/', '/endpoint/graphql/'), weight: 6 },
        { arbitrary: fc.constantFrom('/Endpoint/rest/', '/endpoint/REST/', '/endpoint/', '/api/'), weight: 1 },
      ),
      segments: fc.array(segment, { minLength: 3, maxLength: 7 }),
      slash: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
      query: fc.constantFrom('', '?first=2', '?q=%2F'),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), url, async (method, u) => {
        const path = `${u.prefix}${u.segments.join('/')}${u.slash ? '/' : ''}${u.query}`;
        const fast = fastParams(method, path);
        if (fast === null) return;
        hits += 1;
        assert.deepEqual(fast, await expressParams(method, path), `${method} ${path}`);
      }),
      { seed: SEED, numRuns: 400 },
    );
    assert.ok(hits > 50, `the fast matcher took ${hits} of the generated requests`);
  });

  test('examples: REST with and without a tail, GraphQL on GET and POST only', async () => {
    for (const [method, url] of [
      ['GET', '/endpoint/rest/acme/shop/master/head'],
      ['DELETE', '/endpoint/rest/acme/shop/master/draft/tables/t/row/r%2D7?x=1'],
      ['GET', '/endpoint/graphql/acme/shop/master/head?query=%7B__typename%7D'],
      ['POST', '/endpoint/graphql/acme/shop/master/draft'],
    ] as const) {
      const fast = fastParams(method, url);
      assert.ok(fast !== null, `${method} ${url} is fast`);
      assert.deepEqual(fast, await expressParams(method, url));
    }
    assert.deepEqual(fastParams('GET', '/endpoint/rest/acme/shop/master/draft/tables/t/row/r%2D7')?.params, {
      org: 'acme',
      project: 'shop',
      branch: 'master',
      mode: 'draft',
      rest: ['tables', 't', 'row', 'r-7'],
    });
    assert.equal(fastParams('PUT', '/endpoint/graphql/acme/shop/master/head'), null, 'GraphQL PUT goes through express (405)');
    assert.equal(fastParams('GET', '/endpoint/graphql/acme/shop/master/head/extra'), null);
    assert.equal(fastParams('GET', '/endpoint/rest/acme/shop/master'), null);
  });
});

describe('surfaces and destinations', () => {
  test('paths belong to the first surface that holds them, case-insensitively', () => {
    assert.equal(surfaceOf('/mcp'), SURFACES.mcp);
    assert.equal(surfaceOf('/MCP/x'), SURFACES.mcp);
    assert.equal(surfaceOf('/api/auth'), SURFACES.auth);
    assert.equal(surfaceOf('/api/auth/login'), SURFACES.auth);
    assert.equal(surfaceOf('/api/authx'), SURFACES.systemRest);
    assert.equal(surfaceOf('/api'), null);
    assert.equal(surfaceOf('/graphql/'), SURFACES.systemGraphql);
    assert.equal(surfaceOf('/graphql/x'), null);
    assert.equal(surfaceOf('/endpoint/graphql'), null);
    assert.equal(surfaceOf('/endpoint/graphql/a/b/c/d'), SURFACES.generatedGraphql);
    assert.equal(surfaceOf('/endpoint/rest/a'), SURFACES.generatedRest);
  });

  test("destinations follow each surface's command-role rule", () => {
    assert.equal(destinationOf('GET', '/mcp/anything'), 'command');
    assert.equal(destinationOf('POST', '/api/auth'), 'command');
    assert.equal(destinationOf('POST', '/api/revision/r/table/t/rows/query/'), 'local');
    assert.equal(destinationOf('PATCH', '/endpoint/rest/a/b/c/draft/tables/t'), 'command');
    assert.equal(destinationOf('POST', '/graphql/'), 'graphql');
    assert.equal(destinationOf('POST', '/graphql/x'), 'local');
    assert.equal(destinationOf('POST', '/endpoint/graphql'), 'local');
    assert.equal(destinationOf('GET', '/endpoint/graphql/a/b/c/d'), 'local');
    assert.equal(destinationOf('POST', '/api'), 'local');
  });
});
