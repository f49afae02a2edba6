import { comparePositions } from '../../../contracts/index.ts';
import type { BoundedCache, Position, ViewStore } from '../../../contracts/index.ts';

/**
 * Whether a projection has applied the log up to a position: its active version's checkpoint is at or after it.
 * A committed revision's content never changes once the projections holding it have passed the revision's commit,
 * so readers may keep what they read of it for good. The highest checkpoint seen per projection is remembered, so
 * once a projection is known past a position the answer costs no store read (checkpoints only move forward; a
 * rebuild switches readers only after its copy caught up).
 */
export function createFinality(store: ViewStore) {
  const reached = new Map<string, Position>();

  return async function isFinal(projection: string, position: Position | null): Promise<boolean> {
    if (position === null) return false;
    const known = reached.get(projection);
    if (known !== undefined && comparePositions(known, position) >= 0) return true;
    const version = await store.activeVersion(projection);
    if (version === null) return false;
    const checkpoint = await store.checkpoint({ name: projection, version });
    if (checkpoint === null) return false;
    if (known === undefined || comparePositions(checkpoint, known) > 0) reached.set(projection, checkpoint);
    return comparePositions(checkpoint, position) >= 0;
  };
}

export type Finality = ReturnType<typeof createFinality>;

/**
 * The value kept under `key` or, on a miss, `read()`, kept when `projection` had passed `position` before the read
 * (what is read afterwards is at least that new). A null key reads without keeping (drafts).
 */
export async function readKept<T>(
  isFinal: Finality,
  kept: BoundedCache<string, T>,
  key: string | null,
  at: { readonly projection: string; readonly position: Position | null },
  read: () => Promise<T>,
): Promise<T> {
  if (key === null) return read();
  const cached = kept.get(key);
  if (cached !== undefined) return cached;
  const final = await isFinal(at.projection, at.position);
  const value = await read();
  if (final) kept.set(key, value);
  return value;
}
