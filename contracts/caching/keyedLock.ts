/**
 * Runs tasks one at a time per key within this process, in call order. Appends to one owner stream from one process
 * then take turns instead of racing (and retrying) on the expected revision (other processes are still kept out by
 * it); view stores apply the batches of one projection version in the order they were handed over.
 */
export type KeyedLock = { run<T>(key: string, task: () => Promise<T>): Promise<T> };

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.catch(() => undefined);
      tails.set(key, tail);
      // The last task of a key removes its entry, so the map holds only keys with queued work.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
  };
}
