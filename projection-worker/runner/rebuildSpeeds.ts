import type { Clock } from '../../contracts/index.ts';

/** A rebuild this process runs (or has queued behind another one of the same `all` request). */
export type LocalRebuild = { readonly startedAt: number; targetVersion: number | null; done: number };

export type RebuildSpeeds = {
  start(name: string): void;
  shadow(name: string, version: number): void;
  progress(name: string, done: number, total: number): void;
  finish(name: string): void;
  local(name: string): LocalRebuild | null;
  /** Replay speed: this process's own count when it runs the rebuild, else from the shadow's lag between two calls. */
  eventsPerSecond(name: string, shadow: { readonly version: number; readonly lag: number } | undefined): number;
};

/** Progress bookkeeping of rebuilds for the status rows of operations.md §5.1. */
export function createRebuildSpeeds(clock: Clock): RebuildSpeeds {
  const locals = new Map<string, LocalRebuild>();
  /** Shadows rebuilt by another process: the last lag seen, by `name:version`. */
  const seen = new Map<string, { at: number; lag: number; eps: number }>();
  return {
    start: (name) => void locals.set(name, { startedAt: clock.now(), targetVersion: null, done: 0 }),
    shadow(name, version) {
      const local = locals.get(name);
      if (local) local.targetVersion = version;
    },
    progress(name, done) {
      const local = locals.get(name);
      if (local) local.done = done;
    },
    finish: (name) => void locals.delete(name),
    local: (name) => locals.get(name) ?? null,
    eventsPerSecond(name, shadow) {
      const now = clock.now();
      const local = locals.get(name);
      if (local) return now > local.startedAt ? Math.round((local.done * 1000) / (now - local.startedAt)) : 0;
      if (shadow === undefined) return 0;
      const key = `${name}:${shadow.version}`;
      const last = seen.get(key);
      const eps = last && now > last.at ? Math.max(0, Math.round(((last.lag - shadow.lag) * 1000) / (now - last.at))) : (last?.eps ?? 0);
      seen.set(key, { at: now, lag: shadow.lag, eps });
      return eps;
    },
  };
}
