import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import express from 'express';
import { pino } from 'pino';
import { createGraphqlIdePage, type GraphqlIdePage } from './graphqlIdePage.ts';

const log = pino({ level: 'silent' });

async function serve(page: GraphqlIdePage, run: (url: string) => Promise<void>): Promise<void> {
  const app = express();
  app.use('/endpoint/graphiql', page.assets);
  app.get('/endpoint/graphql/acme/blog/master/head', (_req, res) => page.send(res, '/endpoint/graphql/acme/blog/master/head'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('a GraphiQL build is served with the endpoint in its data attribute and its hashed assets', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'strata-graphiql-'));
  try {
    await mkdir(join(dir, 'assets'));
    await writeFile(
      join(dir, 'index.html'),
      '<div id="graphiql" data-endpoint=""></div><script type="module" src="/endpoint/graphiql/assets/a-1.js"></script>',
    );
    await writeFile(join(dir, 'assets', 'a-1.js'), 'export {};');
    const page = createGraphqlIdePage(dir, log);
    assert.equal(page.kind, 'graphiql');
    await serve(page, async (url) => {
      const res = await fetch(`${url}/endpoint/graphql/acme/blog/master/head`);
      assert.match(await res.text(), /data-endpoint="\/endpoint\/graphql\/acme\/blog\/master\/head"/);
      assert.match(res.headers.get('content-security-policy') ?? '', /^default-src 'self'; style-src 'self' 'unsafe-inline'/);
      assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /unsafe-eval|blob:/);
      assert.equal((await fetch(`${url}/endpoint/graphiql/assets/a-1.js`)).status, 200);
      assert.equal((await fetch(`${url}/endpoint/graphiql/assets/nope.js`)).status, 404);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without a build the minimal IDE page is served', async () => {
  const page = createGraphqlIdePage(null, log);
  assert.equal(page.kind, 'minimal');
  await serve(page, async (url) => {
    const html = await (await fetch(`${url}/endpoint/graphql/acme/blog/master/head`)).text();
    assert.match(html, /<main data-endpoint="\/endpoint\/graphql\/acme\/blog\/master\/head">/);
    assert.equal((await fetch(`${url}/endpoint/graphiql/ide.js`)).status, 200);
  });
});
