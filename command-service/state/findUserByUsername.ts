import type { SystemState, UserRecord } from '../../contracts/index.ts';

/** Exact-username lookup through the shared case-insensitive namespace (no scan of all users). */
export function findUserByUsername(state: SystemState, username: string): UserRecord | null {
  const entry = state.namespace.get(username.toLowerCase());
  if (entry?.kind !== 'user') return null;
  const user = state.users.get(entry.id);
  return user && user.username === username ? user : null;
}
