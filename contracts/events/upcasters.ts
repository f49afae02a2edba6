import type { RecordedEvent } from './envelope.ts';

/** Turns one stored (type, schemaVersion) into the next shape. Events are never rewritten in the log. */
export type Upcaster = {
  readonly type: string;
  readonly fromVersion: number;
  readonly upcast: (data: unknown) => { readonly type: string; readonly schemaVersion: number; readonly data: unknown };
};

export type UpcastFn = (event: RecordedEvent) => RecordedEvent;

/** Builds a function applying every matching upcaster until none matches (chains V1 -> V2 -> V3). */
export function createUpcaster(upcasters: readonly Upcaster[]): UpcastFn {
  const byKey = new Map(upcasters.map((u) => [`${u.type}@${u.fromVersion}`, u]));
  if (byKey.size === 0) return (event) => event;
  return (event) => {
    let current = event;
    for (let guard = 0; guard < 100; guard++) {
      const upcaster = byKey.get(`${current.type}@${current.schemaVersion}`);
      if (!upcaster) return current;
      const next = upcaster.upcast(current.data);
      current = { ...current, type: next.type, schemaVersion: next.schemaVersion, data: next.data };
    }
    return current;
  };
}
