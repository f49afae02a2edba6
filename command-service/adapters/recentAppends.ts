import type { RecordedEvent } from '../../contracts/index.ts';

/** One event this process appended, in the recorded form a read of the log returns, with its JSON size. */
export type AppendedEvent = { readonly event: RecordedEvent; readonly category: string; readonly position: number; readonly bytes: number };

/** What the window answers a read from, or null when the read must go to the log. */
export type RecentAppends = {
  /** Adds the events of one committed transaction (in position order). */
  add(events: readonly AppendedEvent[]): void;
  /**
   * The events after position `from` in log order when the window holds every event from `from + 1` to `head` (the
   * log head read now), else null.
   */
  after(from: number, head: number): readonly AppendedEvent[] | null;
};

/**
 * The last events this process appended to the SQLite log, kept so that the readers in the same process (projection
 * runners, the system state) get them without reading back and parsing what was just written: a bulk write's event
 * is ~300 KB of JSON. The window holds a gap-free run of positions ending at the last append; an append by another
 * process in between starts a new run, and a read answers from the window only when it reaches the log head. Bounded
 * by `maxBytes` of JSON (oldest out first) and emptied `keepMs` after the last append, so an idle process keeps none.
 * Readers get the objects the deciders built: readers never mutate events (projectors are pure).
 */
export function createRecentAppends(options: { readonly maxBytes: number; readonly keepMs: number }): RecentAppends {
  let window: AppendedEvent[] = [];
  let bytes = 0;
  let expiry: NodeJS.Timeout | null = null;

  function clear(): void {
    window = [];
    bytes = 0;
  }

  return {
    add(events) {
      const first = events[0];
      if (first === undefined) return;
      const last = window[window.length - 1];
      if (last === undefined || last.position + 1 !== first.position) clear();
      for (const appended of events) {
        window.push(appended);
        bytes += appended.bytes;
      }
      let drop = 0;
      while (bytes > options.maxBytes && drop < window.length) bytes -= (window[drop++] as AppendedEvent).bytes;
      if (drop > 0) window = window.slice(drop);
      if (expiry !== null) clearTimeout(expiry);
      expiry = setTimeout(clear, options.keepMs);
      // Never keeps the process alive.
      expiry.unref();
    },

    after(from, head) {
      const first = window[0];
      const last = window[window.length - 1];
      if (first === undefined || last === undefined || last.position !== head) return null;
      if (from + 1 < first.position || from >= head) return null;
      return window.slice(from + 1 - first.position);
    },
  };
}
