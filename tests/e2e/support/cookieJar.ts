/** One `Set-Cookie` header, parsed (RFC 6265 §5.2; attribute names case-insensitive). */
export type SetCookie = {
  readonly raw: string;
  readonly name: string;
  readonly value: string;
  readonly path: string | null;
  readonly domain: string | null;
  readonly maxAge: number | null;
  readonly expires: string | null;
  readonly httpOnly: boolean;
  readonly secure: boolean;
  readonly sameSite: string | null;
};

export function parseSetCookie(raw: string): SetCookie {
  const [pair = '', ...attributes] = raw.split(';');
  const eq = pair.indexOf('=');
  const attrs = new Map<string, string>();
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    attrs.set(key, at === -1 ? '' : attribute.slice(at + 1).trim());
  }
  const maxAge = attrs.get('max-age');
  return {
    raw,
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    path: attrs.get('path') ?? null,
    domain: attrs.get('domain') ?? null,
    maxAge: maxAge === undefined ? null : Number(maxAge),
    expires: attrs.get('expires') ?? null,
    httpOnly: attrs.has('httponly'),
    secure: attrs.has('secure'),
    sameSite: attrs.get('samesite') ?? null,
  };
}

/** The parsed `Set-Cookie` headers of a response. */
export function setCookiesOf(headers: Headers): SetCookie[] {
  return headers.getSetCookie().map(parseSetCookie);
}

type Stored = { readonly cookie: SetCookie; readonly path: string; readonly expiresAt: number | null };

/** RFC 6265 §5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** RFC 6265 §5.1.4 default-path of a request path. */
function defaultPath(requestPath: string): string {
  const slash = requestPath.lastIndexOf('/');
  return slash <= 0 ? '/' : requestPath.slice(0, slash);
}

export type CookieJar = {
  /** Stores the response's cookies as a browser would (Max-Age=0 or a past Expires deletes). */
  store(headers: Headers, requestPath: string): void;
  /** The `Cookie` header a browser would send to `requestPath` (longest paths first), or undefined. */
  header(requestPath: string): string | undefined;
  /** The live cookie `name` (any path), or undefined. */
  get(name: string): SetCookie | undefined;
  /** Names of the live cookies. */
  names(): string[];
  /** Sets a cookie by hand (e.g. to present an old token again). */
  put(name: string, value: string, path?: string): void;
};

/** A small host-only cookie jar for one server (domains are not modelled; Secure is not enforced over http). */
export function createCookieJar(now: () => number = Date.now): CookieJar {
  const cookies = new Map<string, Stored>();
  const key = (name: string, path: string): string => `${name}\u0000${path}`;
  const live = (stored: Stored): boolean => stored.expiresAt === null || stored.expiresAt > now();

  function add(cookie: SetCookie, requestPath: string): void {
    const path = cookie.path?.startsWith('/') ? cookie.path : defaultPath(requestPath);
    let expiresAt: number | null = null;
    if (cookie.maxAge !== null) expiresAt = now() + cookie.maxAge * 1000;
    else if (cookie.expires !== null) expiresAt = Date.parse(cookie.expires);
    if (expiresAt !== null && expiresAt <= now()) cookies.delete(key(cookie.name, path));
    else cookies.set(key(cookie.name, path), { cookie, path, expiresAt });
  }

  return {
    store(headers, requestPath) {
      for (const cookie of setCookiesOf(headers)) add(cookie, requestPath);
    },
    header(requestPath) {
      const sent = [...cookies.values()]
        .filter((stored) => live(stored) && pathMatches(requestPath, stored.path))
        .sort((a, b) => b.path.length - a.path.length)
        .map((stored) => `${stored.cookie.name}=${stored.cookie.value}`);
      return sent.length === 0 ? undefined : sent.join('; ');
    },
    get(name) {
      return [...cookies.values()].find((stored) => stored.cookie.name === name && live(stored))?.cookie;
    },
    names() {
      return [...cookies.values()].filter(live).map((stored) => stored.cookie.name);
    },
    put(name, value, path = '/') {
      add(parseSetCookie(`${name}=${value}; Path=${path}`), path);
    },
  };
}
