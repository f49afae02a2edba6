import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Queue } from '../../contracts/index.ts';

export type QueueFixture = {
  /** A fresh queue; the suite closes it. */
  create(): Promise<Queue>;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
};

const WAIT_MS = 10_000;
/** How long "nothing more happens" is observed (a correctness check, not a timing assertion). */
const QUIET_MS = 400;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function gate(): { promise: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

let topicCounter = 0;
const freshTopic = (): string => `projection:contract-${process.pid}-${++topicCounter}`;

/** The Queue port contract (contracts/ports/queue.ts), run against every adapter. */
export function queueContract(adapter: string, fixture: QueueFixture): void {
  describe(`Queue contract: ${adapter}`, () => {
    const opened: Queue[] = [];
    const open = async (): Promise<Queue> => {
      const queue = await fixture.create();
      opened.push(queue);
      return queue;
    };
    before(async () => {
      await fixture.setup?.();
    });
    after(async () => {
      await Promise.all(opened.map((queue) => queue.close().catch(() => undefined)));
      await fixture.teardown?.();
    });
    /** A fresh queue and topic with a handler that counts its calls, then runs `then` with the call's number. */
    const subscribed = async (then?: (call: number) => Promise<void>) => {
      const queue = await open();
      const topic = freshTopic();
      let calls = 0;
      const unsubscribe = await queue.subscribe(topic, async () => {
        calls += 1;
        await then?.(calls);
      });
      return { queue, topic, unsubscribe, calls: () => calls };
    };

    test('a notify runs the handler', async () => {
      const { queue, topic, unsubscribe, calls } = await subscribed();
      await queue.notify(topic);
      await waitUntil('the handler', () => calls() === 1);
      await unsubscribe();
    });

    test('notifies made while a wake-up is pending merge', async () => {
      const first = gate();
      const { queue, topic, unsubscribe, calls } = await subscribed(async (call) => {
        if (call === 1) await first.promise;
      });
      await queue.notify(topic);
      await waitUntil('the first call', () => calls() === 1);
      // The first call is active, so these ten requests merge into one pending wake-up.
      for (let i = 0; i < 10; i++) await queue.notify(topic);
      first.open();
      await waitUntil('the merged call', () => calls() === 2);
      await sleep(QUIET_MS);
      assert.equal(calls(), 2);
      await unsubscribe();
    });

    test('concurrent notifies with an idle handler run it once or twice, never more', async () => {
      const { queue, topic, unsubscribe, calls } = await subscribed();
      await Promise.all(Array.from({ length: 20 }, () => queue.notify(topic)));
      await waitUntil('a call', () => calls() >= 1);
      await sleep(QUIET_MS);
      assert.ok(calls() >= 1 && calls() <= 2, `handler ran ${calls()} times`);
      await unsubscribe();
    });

    test('a notify while the handler is active leads to another run', async () => {
      const first = gate();
      let sawNotifyDuringRun = false;
      const { queue, topic, unsubscribe, calls } = await subscribed(async (call) => {
        if (call === 1) {
          await queue.notify(topic);
          sawNotifyDuringRun = true;
          await first.promise;
        }
      });
      await queue.notify(topic);
      await waitUntil('the notify inside the handler', () => sawNotifyDuringRun);
      first.open();
      await waitUntil('the second run', () => calls() === 2);
      await unsubscribe();
    });

    test('one handler call at a time per topic', async () => {
      const queue = await open();
      const topic = freshTopic();
      let active = 0;
      let maxActive = 0;
      let calls = 0;
      const unsubscribe = await queue.subscribe(topic, async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await sleep(20);
        calls += 1;
        active -= 1;
      });
      for (let i = 0; i < 5; i++) {
        await queue.notify(topic);
        await sleep(10);
      }
      await waitUntil('the calls', () => calls >= 2 && active === 0);
      await sleep(QUIET_MS);
      assert.equal(maxActive, 1);
      await unsubscribe();
    });

    test('a failing handler does not stop later deliveries', async () => {
      const { queue, topic, unsubscribe, calls } = await subscribed(async (call) => {
        if (call === 1) throw new Error('boom');
      });
      await queue.notify(topic);
      await waitUntil('the failing call', () => calls() === 1);
      await sleep(50);
      await queue.notify(topic);
      await waitUntil('the next call', () => calls() === 2);
      await unsubscribe();
    });

    test('unsubscribe stops delivery', async () => {
      const { queue, topic, unsubscribe, calls } = await subscribed();
      await queue.notify(topic);
      await waitUntil('the first call', () => calls() === 1);
      await unsubscribe();
      await queue.notify(topic);
      await sleep(QUIET_MS);
      assert.equal(calls(), 1);
    });

    test('topics are independent', async () => {
      const queue = await open();
      const a = freshTopic();
      const b = freshTopic();
      const blockA = gate();
      let callsA = 0;
      let callsB = 0;
      const stopA = await queue.subscribe(a, async () => {
        callsA += 1;
        await blockA.promise;
      });
      const stopB = await queue.subscribe(b, async () => {
        callsB += 1;
      });
      await queue.notify(a);
      await waitUntil('topic a', () => callsA === 1);
      // b is delivered while a's handler is still blocked.
      await queue.notify(b);
      await waitUntil('topic b', () => callsB === 1);
      assert.equal(callsA, 1);
      blockA.open();
      await sleep(QUIET_MS);
      assert.equal(callsA, 1);
      assert.equal(callsB, 1);
      await Promise.all([stopA(), stopB()]);
    });

    test('ping answers true while open; close stops everything', async () => {
      const { queue, topic, calls } = await subscribed();
      assert.equal(await queue.ping(), true);
      await queue.close();
      assert.equal(await queue.ping(), false);
      await assert.rejects(queue.notify(topic));
      await sleep(QUIET_MS);
      assert.equal(calls(), 0);
    });
  });
}
