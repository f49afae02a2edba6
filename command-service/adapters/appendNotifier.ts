import type { Logger } from 'pino';
import type { Position } from '../../contracts/index.ts';
import { createHeadListeners } from './headListeners.ts';

export type AppendNotifier = {
  /** Adds a listener; polling runs only while at least one listener exists. */
  subscribe(listener: (head: Position) => void): () => void;
  /** Tells listeners about a head this process has just committed. */
  notify(head: Position): void;
  stop(): void;
};

/**
 * Fans out head changes to `onAppended` listeners. Appends by other processes sharing the store are only visible
 * by polling: `changeCounter` is a cheap probe (SQLite's `PRAGMA data_version` changes when another connection
 * commits) and `readHead` runs only when it moved.
 */
export function createAppendNotifier(deps: {
  readHead: () => Position | null;
  changeCounter: () => number;
  pollIntervalMs: number;
  log?: Logger | undefined;
}): AppendNotifier {
  const heads = createHeadListeners(deps.log);
  const { listeners } = heads;
  let timer: NodeJS.Timeout | undefined;
  let lastCounter = 0;

  function poll(): void {
    try {
      const counter = deps.changeCounter();
      if (counter === lastCounter) return;
      lastCounter = counter;
      const head = deps.readHead();
      if (head !== null) heads.announce(head);
    } catch (err) {
      deps.log?.warn({ err }, 'event store poll failed');
    }
  }

  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (timer === undefined) {
        lastCounter = deps.changeCounter();
        heads.seen(deps.readHead());
        timer = setInterval(poll, deps.pollIntervalMs);
        // Waiting for appends must never keep the process alive on its own.
        timer.unref();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    notify(head) {
      heads.announce(head);
    },
    stop() {
      listeners.clear();
      stop();
    },
  };
}
