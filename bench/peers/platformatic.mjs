// Platformatic DB 3 standalone (one Fastify server, no runtime/workers), as bench/peersBench.ts runs it: REST and
// GraphQL generated from the PostgreSQL schema, request logging off (logger level warn), query cache off, created_at
// written by the client (autoTimestamp off, as for the others), no
// migrations, no telemetry. Env: DATABASE_URL, PORT.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create } from '@platformatic/db';

const root = dirname(fileURLToPath(import.meta.url));
const app = await create(root, {
  server: { hostname: '127.0.0.1', port: Number(process.env.PORT), logger: { level: 'warn' } },
  db: { connectionString: process.env.DATABASE_URL, graphql: true, openapi: true, cache: false, events: false, autoTimestamp: false },
  watch: false,
});
await app.init();
await app.start({ listen: true });
process.on('SIGTERM', () => {
  void app.stop().then(() => process.exit(0));
});
