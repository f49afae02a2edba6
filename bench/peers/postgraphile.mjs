// PostGraphile 5 (amber preset + postgraphile-plugin-connection-filter) on node:http, as bench/peersBench.ts runs it:
// production settings (no GraphiQL, no watch mode, no explain). Env: DATABASE_URL, PORT.
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { PostGraphileConnectionFilterPreset } from 'postgraphile-plugin-connection-filter';

const preset = {
  extends: [PostGraphileAmberPreset, PostGraphileConnectionFilterPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ['public'] })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: { explain: false },
};
const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server);
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pgl.release().then(() => process.exit(0));
});
