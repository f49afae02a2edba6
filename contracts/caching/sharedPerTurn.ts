/**
 * One computation per key shared by the callers of one macrotask (one synchronous run and the microtasks it queues):
 * the first call of a turn computes, later calls in the same turn get the same value (a promise: the same read),
 * and the share ends in a microtask queued by that first call, so before the process can read anything more from
 * the network. A request that arrives after another process acknowledged a write therefore never gets an answer
 * from before it (operations.md §4.4). Ending at `setImmediate` instead is not enough: called from the check phase,
 * it fires only after the next poll phase, whose requests would then share a stale answer (found by the chaos
 * harness: a revoked key accepted on another replica).
 *
 * A computation that throws is not shared. Without a key argument (`K` = void) it is one value per turn.
 */
export function sharedPerTurn<K = void, V = unknown>(compute: (key: K) => V): (key: K) => V {
  let shared: Map<K, V> | null = null;
  const endTurn = (): void => {
    shared = null;
  };
  return (key: K): V => {
    if (shared === null) {
      shared = new Map();
      queueMicrotask(endTurn);
    } else if (shared.has(key)) {
      return shared.get(key) as V;
    }
    const value = compute(key);
    shared.set(key, value);
    return value;
  };
}
