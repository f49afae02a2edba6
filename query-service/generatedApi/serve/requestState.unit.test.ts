import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request, Response } from 'express';
import { AppError, anonymousPrincipal, createSystemState, sqlitePosition } from '../../../contracts/index.ts';
import type { Authenticator, SystemStateSource } from '../../../contracts/index.ts';
import { principalAndState } from './requestState.ts';

/** A source counting `current()` calls per synchronous run, like the head queries the real one shares per turn. */
function countingSource() {
  const turns: number[] = [];
  let inTurn = false;
  const source: SystemStateSource = {
    async current() {
      if (!inTurn) {
        inTurn = true;
        turns.push(0);
        queueMicrotask(() => (inTurn = false));
      }
      turns[turns.length - 1] = (turns.at(-1) ?? 0) + 1;
      return createSystemState();
    },
  };
  return { source, turns };
}

/** Authenticates like the real authenticator: reads the system state before its first await. */
const authenticatorOn = (source: SystemStateSource, fail = false): Authenticator =>
  ({
    async authenticate() {
      await source.current();
      if (fail) throw new AppError('UNAUTHENTICATED');
      return anonymousPrincipal;
    },
  }) as unknown as Authenticator;

const request = (headers: Record<string, string> = {}) => ({ headers, url: '/x', originalUrl: '/x', method: 'POST' }) as unknown as Request;
const response = () => ({ locals: {} }) as unknown as Response;
const waiter = { waitFor: async () => true };
const minPosition = { waiter, backend: 'sqlite' as const, timeoutMs: 1000 };

test('the state and the credentials check are read in one turn (one look at the head)', async () => {
  const { source, turns } = countingSource();
  const { principal } = await principalAndState({ authenticator: authenticatorOn(source), systemState: source, minPosition }, request(), response());
  assert.equal(principal.kind, 'anonymous');
  assert.deepEqual(turns, [2]);
});

test('with X-Strata-Min-Position the state is read again once the views reached it', async () => {
  const { source, turns } = countingSource();
  const headers = { 'x-strata-min-position': sqlitePosition(3) };
  await principalAndState({ authenticator: authenticatorOn(source), systemState: source, minPosition }, request(headers), response());
  assert.deepEqual(turns, [2, 1]);
});

test('a failed authentication answers, not a failed state read', async () => {
  const failing: SystemStateSource = { current: async () => Promise.reject(new Error('store down')) };
  const authenticator = authenticatorOn({ current: async () => createSystemState() }, true);
  await assert.rejects(
    principalAndState({ authenticator, systemState: failing, minPosition }, request(), response()),
    (err: unknown) => err instanceof AppError && err.code === 'UNAUTHENTICATED',
  );
});
