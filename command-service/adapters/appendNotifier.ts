import type { Logger } from 'pino';
import { comparePositions } from '../../contracts/index.ts';
import type { Position } from '../../contracts/index.ts';

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
  const listeners = new Set<(head: Position) => void>();
  let timer: NodeJS.Timeout | undefined;
  let lastCounter = 0;
  let lastHead: Position | null = null;

  function notify(head: Position): void {
    // Listeners only care about progress: an older or equal head is not news.
    if (comparePositions(head, lastHead) <= 0) return;
    lastHead = head;
    for (const listener of [...listeners]) {
      try {
        listener(head);
      } catch (err) {
        deps.log?.error({ err }, 'onAppended listener failed');
      }
    }
  }

  function poll(): void {
    try {
      const counter = deps.changeCounter();
      if (counter === lastCounter) return;
      lastCounter = counter;
      const head = deps.readHead();
      if (head !== null) notify(head);
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
        lastHead = deps.readHead();
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
      if (listeners.size > 0) notify(head);
    },
    stop() {
      listeners.clear();
      stop();
    },
  };
}
