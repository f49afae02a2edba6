import { useCallback, useEffect, useState } from 'react';

export type Loadable<T> =
  | { readonly status: 'loading' }
  | { readonly status: 'error'; readonly error: unknown }
  | { readonly status: 'ready'; readonly data: T };

const LOADING: Loadable<never> = { status: 'loading' };

/**
 * Runs `load` when `deps` change (compared by value): new deps show the loading state. A change of `refresh`
 * (e.g. a counter bumped after a write) and `reload()` load again while the old data stays on screen, so forms
 * below it keep their state and their success messages.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[], refresh: unknown = null): [Loadable<T>, () => void] {
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key: string | null; value: Loadable<T> }>({ key: null, value: LOADING });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ key, value: { status: 'ready', data } }),
      (error: unknown) => current && setState({ key, value: { status: 'error', error } }),
    );
    return () => {
      current = false;
    };
    // `load` closes over `deps`, which `key` captures by value.
  }, [key, version, refresh]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return [state.key === key ? state.value : LOADING, reload];
}
