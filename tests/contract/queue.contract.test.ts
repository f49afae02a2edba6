import { pino } from 'pino';
import { createInProcessQueue, loadBullmqQueue } from '../../projection-worker/index.ts';
import { startRedisServer } from '../support/redisServer.ts';
import type { RedisServer } from '../support/redisServer.ts';
import { queueContract } from './queueContract.ts';

const { createBullmqQueue } = await loadBullmqQueue();

queueContract('in-process', { create: () => Promise.resolve(createInProcessQueue()) });

let redis: RedisServer | null = null;
let prefixes = 0;
queueContract('bullmq', {
  async setup() {
    redis = await startRedisServer();
  },
  async teardown() {
    await redis?.stop();
  },
  create() {
    if (redis === null) throw new Error('redis-server is not running');
    const prefix = `strata-contract-${++prefixes}`;
    return Promise.resolve(createBullmqQueue({ url: redis.url, prefix, log: pino({ level: 'silent' }) }));
  },
});
