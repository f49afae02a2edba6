import { pino } from 'pino';
import { createInMemoryMcpSessionStore, createRedisMcpSessionStore } from '../../query-service/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { redisTestClients } from '../support/redisClients.ts';
import { mcpSessionStoreContract } from './mcpSessionStoreContract.ts';

mcpSessionStoreContract('in-memory', {
  open(limits) {
    const store = createInMemoryMcpSessionStore(limits);
    return [store, store];
  },
});

let redis: RedisServer | null = null;
const clients = redisTestClients();
let prefixes = 0;
const log = pino({ level: 'silent' });
mcpSessionStoreContract('redis (two replicas)', {
  async setup() {
    redis = await startRedisServer();
  },
  async teardown() {
    clients.disconnectAll();
    await redis?.stop();
  },
  open(limits) {
    if (redis === null) throw new Error('redis-server is not running');
    const url = redis.url;
    const prefix = `mcp-contract-${++prefixes}`;
    const replica = () => createRedisMcpSessionStore({ redis: clients.open(url), limits, prefix, log });
    return [replica(), replica()];
  },
});
