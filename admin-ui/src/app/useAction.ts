import { useCallback, useState } from 'react';

export type Action = {
  readonly busy: boolean;
  readonly error: unknown;
  /** Runs `work`, remembering its failure (resolves undefined then) for display. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
  clear(): void;
};

/** State of one user action (a form submit or a button): busy while running, the error afterwards. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}
