import type { Logger } from 'pino';
import { comparePositions } from '../../contracts/index.ts';
import type { Position } from '../../contracts/index.ts';

/** The `onAppended` listeners of one event store, told only of progress (an older or equal head is not news). */
export type HeadListeners = {
  readonly listeners: Set<(head: Position) => void>;
  /** Records the head the listeners are known to have seen, without telling them. */
  seen(head: Position | null): void;
  /** Tells every listener about `head` when it is past the last one; a throwing listener is logged and skipped. */
  announce(head: Position): void;
};

export function createHeadListeners(log: Logger | undefined): HeadListeners {
  const listeners = new Set<(head: Position) => void>();
  let lastHead: Position | null = null;
  return {
    listeners,
    seen(head) {
      lastHead = head;
    },
    announce(head) {
      if (listeners.size === 0 || comparePositions(head, lastHead) <= 0) return;
      lastHead = head;
      for (const listener of [...listeners]) {
        try {
          listener(head);
        } catch (err) {
          log?.error({ err }, 'onAppended listener failed');
        }
      }
    },
  };
}
