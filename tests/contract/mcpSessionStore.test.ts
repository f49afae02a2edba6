import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createInMemoryMcpSessionStore, createRedisMcpSessionStore } from '../../query-service/index.ts';
import { startRedisServer, type RedisServer } from '../support/redisServer.ts';
import { mcpSessionStoreContract } from './mcpSessionStoreContract.ts';

mcpSessionStoreContract('in-memory', {
  open(limits) {
    const store = createInMemoryMcpSessionStore(limits);
    return [store, store];
  },
});

let redis: RedisServer | null = null;
const clients: Redis[] = [];
let prefixes = 0;
const log = pino({ level: 'silent' });
mcpSessionStoreContract('redis (two replicas)', {
  async setup() {
    redis = await startRedisServer();
  },
  async teardown() {
    for (const client of clients) client.disconnect();
    await redis?.stop();
  },
  open(limits) {
    if (redis === null) throw new Error('redis-server is not running');
    const url = redis.url;
    const prefix = `mcp-contract-${++prefixes}`;
    const replica = () => {
      const client = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 1000 });
      client.on('error', () => undefined);
      clients.push(client);
      return createRedisMcpSessionStore({ redis: client, limits, prefix, log });
    };
    return [replica(), replica()];
  },
});
