// Every outbound HTTP client of the product against the hostile-server kit (tests/support/hostileServer.ts): the one
// outbound client (deploy/http/outboundHttp.ts, used by webhook deliveries and Client ID Metadata Documents) and the
// metadata-document lookup behind `GET /oauth/authorize`. Each case must end as a documented result, the process must
// stay alive, and nothing may be left behind (the kit's connections close, no socket or timer outlives the case).
// Before the fix a document a little over 5 KiB arriving with the end of the answer killed the process
// (`Error: the document is larger than 5120 bytes` emitted on a TLSSocket with no listener). The same cases run
// anonymously through a real server in tests/e2e/oauthHostileDocuments.e2e.test.ts. The other outbound clients have a
// run of their own: the write forwarding proxy (deploy/http/httpProxy.ts) in deploy/http/httpProxy.int.test.ts, and
// the transfer CLI (`strata export|import|bundle`, deploy/transferHttp.ts) in
// tests/integration/transferCliHostile.int.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { createBranchCommandHandlers, createCommandService, createSqliteEventStore, createSystemStateSource } from '../../command-service/index.ts';
import { systemClock } from '../../contracts/index.ts';
import type { OutboundResult } from '../../contracts/index.ts';
import { createOutboundHttp } from '../../deploy/http/outboundHttp.ts';
import { TEST_COMMAND_CONFIG } from '../../command-service/testing/commandConfig.ts';
import {
  activeResources,
  hostileCases,
  settledWithoutLeaks,
  startHostileServer,
  type HostileCase,
  type HostileServer,
} from '../support/hostileServer.ts';

const TIMEOUT_MS = 3000;
const MAX_BYTES = 5 * 1024;

/** The outcome each case must have with `bodyHandling: keep` (a 5 KiB document) and with `discard` (a webhook). */
const expected: Record<HostileCase, { keep: string; discard: string }> = {
  'oversize-one-chunk': { keep: 'too_large', discard: 'ok 200' },
  'oversize-stream': { keep: 'too_large', discard: 'ok 200' },
  'oversize-declared': { keep: 'too_large', discard: 'timeout' },
  drip: { keep: 'timeout', discard: 'timeout' },
  'never-answer': { keep: 'timeout', discard: 'timeout' },
  'headers-then-silence': { keep: 'timeout', discard: 'timeout' },
  'reset-mid-body': { keep: 'network', discard: 'network' },
  'close-at-once': { keep: 'network', discard: 'network' },
  'short-body': { keep: 'network', discard: 'network' },
  'redirect-loop': { keep: 'ok 302', discard: 'ok 302' },
  'invalid-json': { keep: 'ok 200', discard: 'ok 200' },
  'huge-headers': { keep: 'network', discard: 'network' },
  'gzip-bomb': { keep: 'too_large', discard: 'ok 200' },
  'invalid-http': { keep: 'network', discard: 'network' },
  'tls-garbage': { keep: 'network', discard: 'network' },
  'tls-untrusted': { keep: 'network', discard: 'network' },
};

const outcome = (result: OutboundResult): string => (result.ok ? `ok ${result.status}` : result.kind);

describe('outbound HTTP against hostile hosts', { concurrency: false }, () => {
  let kit: HostileServer;
  let baseline: Map<string, number>;
  before(async () => {
    kit = await startHostileServer();
    baseline = activeResources();
  });
  after(async () => kit?.stop());

  for (const bodyHandling of ['keep', 'discard'] as const) {
    test(`every case ends as documented, over http and https (body ${bodyHandling})`, { timeout: 60_000 }, async () => {
      const client = createOutboundHttp({ ca: [kit.ca] });
      const runs = hostileCases.flatMap((hostileCase) =>
        (['http', 'https'] as const)
          .filter((protocol) => protocol === 'https' || !hostileCase.startsWith('tls-'))
          .map(async (protocol) => {
            const result = await client.send({
              url: kit.urlOf(hostileCase, protocol),
              method: bodyHandling === 'keep' ? 'GET' : 'POST',
              body: bodyHandling === 'keep' ? undefined : '{"type":"ping"}',
              timeoutMs: TIMEOUT_MS,
              bodyHandling,
              maxBodyBytes: MAX_BYTES,
              allowPrivateAddresses: true,
            });
            assert.ok(result.durationMs < TIMEOUT_MS + 1000, `${hostileCase} over ${protocol} settled within its deadline (${result.durationMs} ms)`);
            return `${hostileCase} ${protocol}: ${outcome(result)}`;
          }),
      );
      const got = await Promise.all(runs);
      const want = hostileCases.flatMap((hostileCase) =>
        (['http', 'https'] as const)
          .filter((protocol) => protocol === 'https' || !hostileCase.startsWith('tls-'))
          .map((protocol) => `${hostileCase} ${protocol}: ${expected[hostileCase][bodyHandling]}`),
      );
      assert.deepEqual(got, want);
      await settledWithoutLeaks(kit, baseline);
    });
  }

  test('a non-public host is refused before any connection unless private addresses are allowed', async () => {
    const client = createOutboundHttp({ ca: [kit.ca] });
    const before = kit.hits('invalid-json');
    const refused = await client.send({
      url: kit.urlOf('invalid-json', 'http'),
      method: 'GET',
      timeoutMs: TIMEOUT_MS,
      bodyHandling: 'keep',
      maxBodyBytes: MAX_BYTES,
      allowPrivateAddresses: false,
    });
    assert.equal(outcome(refused), 'disallowed_address');
    // A name that resolves to loopback is refused at connect time (no rebinding gap).
    const byName = await client.send({
      url: kit.urlOf('invalid-json', 'http').replace('127.0.0.1', 'localhost'),
      method: 'GET',
      timeoutMs: TIMEOUT_MS,
      bodyHandling: 'keep',
      maxBodyBytes: MAX_BYTES,
      allowPrivateAddresses: false,
    });
    assert.equal(outcome(byName), 'disallowed_address');
    assert.equal(kit.hits('invalid-json'), before, 'the host never saw a request');
    await settledWithoutLeaks(kit, baseline);
  });

  test(
    'the metadata-document lookup answers every case with a reason for the error page, and the process lives on',
    { timeout: 60_000 },
    async () => {
      const log = pino({ level: 'silent' });
      const eventStore = createSqliteEventStore({ file: ':memory:' });
      const systemState = createSystemStateSource({ eventStore });
      const service = createCommandService({
        eventStore,
        systemState,
        clock: systemClock,
        log,
        branchHandlers: createBranchCommandHandlers,
        outboundHttp: createOutboundHttp({ ca: [kit.ca] }),
        config: { ...TEST_COMMAND_CONFIG, oauthCimdAllowPrivateAddresses: true },
      });
      try {
        const reasons = await Promise.all(
          hostileCases.map(async (hostileCase) => {
            const found = await service.oauth.findClient(kit.urlOf(hostileCase, 'https'));
            assert.equal(found.client, null, hostileCase);
            return `${hostileCase}: ${'reason' in found ? found.reason : ''}`;
          }),
        );
        for (const line of reasons) assert.match(line, /: its metadata document (could not be fetched|answered HTTP 302|is not JSON)/);
        assert.ok(reasons.includes('redirect-loop: its metadata document answered HTTP 302'), reasons.join('\n'));
        assert.ok(reasons.includes('invalid-json: its metadata document is not JSON'), reasons.join('\n'));
        assert.ok(
          reasons.some((line) =>
            line.startsWith('oversize-one-chunk: its metadata document could not be fetched (the answer is larger than 5120 bytes)'),
          ),
          reasons.join('\n'),
        );
        await settledWithoutLeaks(kit, baseline);
      } finally {
        await eventStore.close();
      }
    },
  );

  test('concurrent lookups of one document share a fetch', async () => {
    const eventStore = createSqliteEventStore({ file: ':memory:' });
    const service = createCommandService({
      eventStore,
      systemState: createSystemStateSource({ eventStore }),
      clock: systemClock,
      log: pino({ level: 'silent' }),
      branchHandlers: createBranchCommandHandlers,
      outboundHttp: createOutboundHttp({ ca: [kit.ca] }),
      config: { ...TEST_COMMAND_CONFIG, oauthCimdAllowPrivateAddresses: true },
    });
    try {
      const before = kit.hits('drip');
      const url = kit.urlOf('drip', 'https', '/shared.json');
      await Promise.all(Array.from({ length: 20 }, () => service.oauth.findClient(url)));
      assert.equal(kit.hits('drip') - before, 1);
      await settledWithoutLeaks(kit, baseline);
    } finally {
      await eventStore.close();
    }
  });
});
