// HTTP calls of the workload. Every answer is classified: a 5xx outside a failover window, a 5xx other than 503
// inside one, or a refused connection to a process that is up and outside any window is a violation.
import { API_MEMBERS, type Cluster, type MemberName } from './cluster.ts';
import type { Recorder } from './recorder.ts';
import type { Random } from './random.ts';

export type Reply = {
  /** 0 when no HTTP answer came (connection refused or reset, timeout). */
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies, checked by the callers
  readonly body: any;
  readonly target: MemberName;
  readonly error?: string;
};

export type CallOptions = {
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** Counts the latency as a write (default: methods other than GET). */
  readonly write?: boolean;
};

export type Client = {
  call(target: MemberName, method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** A random API process that is up (any of them when all are down). */
  pick(random: Random, except?: MemberName): MemberName;
};

const REQUEST_TIMEOUT_MS = 30_000;

export function createClient(cluster: Cluster, recorder: Recorder): Client {
  return {
    pick(random, except) {
      const up = API_MEMBERS.filter((name) => name !== except && cluster.isUp(name));
      return random.pick(up.length > 0 ? up : API_MEMBERS.filter((name) => name !== except));
    },
    async call(target, method, path, options = {}) {
      const started = Date.now();
      const headers: Record<string, string> = { ...options.headers };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      let reply: Reply;
      try {
        const res = await fetch(`${cluster.member(target).url}${path}`, {
          method,
          headers,
          ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        reply = { status: res.status, headers: res.headers, body: parseBody(text, res.headers.get('content-type')), target };
      } catch (err) {
        reply = { status: 0, headers: new Headers(), body: null, target, error: String((err as Error).cause ?? err) };
      }
      const ended = Date.now();
      const write = options.write ?? method !== 'GET';
      recorder.count(`http:${reply.status === 0 ? 'no-answer' : `${Math.floor(reply.status / 100)}xx`}`);
      if (reply.status >= 200 && reply.status < 300) (write ? recorder.latencies.write : recorder.latencies.read).push(ended - started);
      const consistency = reply.headers.get('x-strata-consistency');
      if (consistency !== null) recorder.count(`consistency:${consistency}`);
      const window = recorder.inWindow(started, ended);
      const what = `${method} ${path.replace(/svc_\w+/g, 'svc_…')} on ${target}`;
      if (reply.status === 0) {
        if (window || !cluster.isUp(target)) recorder.count('tolerated:no-answer-in-failover-window');
        else recorder.violation('no-errors-outside-failover-window', `${what}: no answer (${reply.error ?? ''})`);
      } else if (reply.status >= 500) {
        if (window && reply.status === 503) recorder.count('tolerated:503-in-failover-window');
        else
          recorder.violation(
            'no-5xx-but-503-in-failover-window',
            `${what}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}${window ? ' (inside a window)' : ''}`,
          );
      }
      return reply;
    },
  };
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return null;
  if (contentType?.includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
    return data.length > 0 ? JSON.parse(data.at(-1) ?? 'null') : null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Cookie values of a reply's Set-Cookie headers (empty values clear a cookie). */
export function setCookies(reply: Reply): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const raw of reply.headers.getSetCookie()) {
    const [pair] = raw.split(';');
    const eq = (pair ?? '').indexOf('=');
    if (eq > 0) cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
  }
  return cookies;
}

export const isOk = (reply: Reply): boolean => reply.status >= 200 && reply.status < 300;
/** No answer or a 5xx: a write may or may not have happened. */
export const isUnknown = (reply: Reply): boolean => reply.status === 0 || reply.status >= 500;
