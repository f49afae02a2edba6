/** The app lives below this path (admin-ui.md §1); deep links are served index.html by the server. */
export const BASE = '/admin';

export type Navigation = {
  /** The path below BASE (always starting with '/') plus the search string. */
  current(): { path: string; search: string };
  /** `keepScroll`: the same screen in another state (a grid's filter or page), so the page does not jump to the top. */
  navigate(to: string, options?: { replace?: boolean; keepScroll?: boolean }): void;
  subscribe(listener: () => void): () => void;
  /** The browser URL of an app path. */
  href(to: string): string;
};

/** History-API navigation over `window` (one per app instance). */
export function createBrowserNavigation(win: Window): Navigation {
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((listener) => listener());
  win.addEventListener('popstate', notify);
  const href = (to: string): string => `${BASE}${to.startsWith('/') ? to : `/${to}`}`;
  return {
    current() {
      const { pathname, search } = win.location;
      const below = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
      return { path: below === '' ? '/' : below, search };
    },
    navigate(to, options = {}) {
      if (options.replace) win.history.replaceState(null, '', href(to));
      else win.history.pushState(null, '', href(to));
      if (!options.keepScroll) win.scrollTo(0, 0);
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    href,
  };
}

export type Params = Readonly<Record<string, string>>;

/** Every screen gets its route parameters; `rev` is `draft`, `head` or a revision id. */
export type ScreenProps = { readonly params: Params };

/** Matches `/org/:org/project/:project` against a path; segments are URI-decoded. */
export function matchPath(pattern: string, path: string): Params | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    let value: string;
    try {
      value = decodeURIComponent(g);
    } catch {
      return null;
    }
    if (w.startsWith(':')) params[w.slice(1)] = value;
    else if (w !== value) return null;
  }
  return params;
}

/** Builds an app path from segments, encoding each one. */
export function pathOf(...segments: readonly string[]): string {
  return `/${segments.map((segment) => encodeURIComponent(segment)).join('/')}`;
}
