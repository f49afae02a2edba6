import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger } from 'pino';
import { createBoundedCache } from '../contracts/index.ts';
import type { RequestLineWriter } from '../query-service/index.ts';
import type { StrataConfig } from './config/strataConfig.ts';
import { mayHoldSecret, redactLogValue, redactText } from './logging/redactLogValue.ts';

const serializeError = (err: Error): unknown => pino.stdSerializers.err(err);
const redactObject = (value: Record<string, unknown>): Record<string, unknown> => redactLogValue(value, serializeError) as Record<string, unknown>;

/** Lines under 4 KiB wait at most this long before they are written. */
const FLUSH_INTERVAL_MS = 50;

/**
 * Stdout written in blocks of at least 4 KiB or every 50 ms, whichever comes first, instead of one write per line
 * (at thousands of requests per second the per-line writes cost more than the lines). pino flushes what is left
 * synchronously when the process exits. Lines are handed over as bytes: in text mode sonic-boom measures the UTF-8
 * length of the whole pending block on every line (a CPU profile showed it as a third of the cost of a request
 * line); in buffer mode it adds up the lengths of the lines.
 */
function stdoutLines(): DestinationStream {
  const blocks = pino.destination({
    dest: process.stdout.fd,
    sync: false,
    minLength: 4096,
    periodicFlush: FLUSH_INTERVAL_MS,
    contentMode: 'buffer',
  });
  return {
    write: (line: string) => blocks.write(Buffer.from(line, 'utf8') as unknown as string),
    flush: (cb?: (err?: Error) => void) => blocks.flush(cb),
    flushSync: () => blocks.flushSync(),
  } as DestinationStream;
}

/**
 * The one root logger: JSON lines (stdout, buffered, unless `destination` is given) at LOG_LEVEL with RFC 3339 `time` and
 * `level` labels. Redaction happens here, once, for every child: secret keys at any depth (headers, passwords,
 * tokens, key secrets, MCP session ids) and secrets inside any text of the final line (api_key query values,
 * URL credentials, bearer tokens, svc_ keys).
 */
export function createRootLogger(config: Pick<StrataConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const stream = destination ?? stdoutLines();
  // pino's default base, spelled out so that request lines (below) can write the same bindings.
  const base = { pid: process.pid, hostname: hostname() };
  const options = {
    level: config.logLevel,
    base,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label: string) => ({ level: label }),
      bindings: redactObject,
      log: redactObject,
    },
    // Errors are already plain objects redacted by `formatters.log`; a second serializer pass would rename them.
    serializers: { err: (value: unknown) => value },
    hooks: { streamWrite: redactText },
  };
  const log = pino(options, stream);
  roots.set(log, { stream, bindings: `,"pid":${base.pid},"hostname":${JSON.stringify(base.hostname)}` });
  return log;
}

/** Root loggers made here, with their destination and their bindings as pino writes them. */
const roots = new WeakMap<Logger, { readonly stream: DestinationStream; readonly bindings: string }>();

/** `new Date().toISOString()` (about a microsecond), made once per millisecond. */
function isoTimeOf(): () => string {
  let lastMs = -1;
  let last = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      last = new Date(now).toISOString();
    }
    return last;
  };
}

type Quoted = { readonly text: string; readonly mayHoldSecret: boolean };

/** JSON text of strings that repeat (methods, route templates, messages) and their redaction pre-check, bounded. */
function quotedOf(): (value: string) => Quoted {
  const cache = createBoundedCache<string, Quoted>({ maxEntries: 1_000, maxBytes: 1024 * 1024 });
  return (value) => {
    let quoted = cache.get(value);
    if (quoted === undefined) {
      quoted = { text: JSON.stringify(value), mayHoldSecret: mayHoldSecret(value) };
      cache.set(value, quoted, 48 + quoted.text.length);
    }
    return quoted;
  };
}

/**
 * Writes the completion line of a request for `log` (a root logger made by createRootLogger) byte for byte as
 * `log.info(line, msg)` / `log.warn(...)` would, without pino's generic serialisation, formatters and per-key
 * redaction: at thousands of requests per second those cost about a fifth of a generated read. The keys of a
 * request line are fixed and never secret; its values are a validated request id, an HTTP method, a route template,
 * numbers and a principal reference, so JSON.stringify escapes them as pino does. Text redaction applies as to every
 * line; its patterns can only match inside the line's strings, so those are what the cheap pre-check looks at.
 * `undefined` for other loggers (children, test loggers): they log through pino.
 */
export function requestLineWriter(log: Logger): RequestLineWriter | undefined {
  const root = roots.get(log);
  if (root === undefined) return undefined;
  const { stream, bindings } = root;
  const timeNow = isoTimeOf();
  const quoted = quotedOf();
  const bindingsMayHoldSecret = mayHoldSecret(bindings);
  return (level, line, msg) => {
    if (!log.isLevelEnabled(level)) return;
    const { reqId, principal } = line;
    const method = quoted(line.method);
    const route = quoted(line.route);
    const message = quoted(msg);
    const text =
      `{"level":"${level}","time":"${timeNow()}"${bindings}` +
      `,"reqId":${JSON.stringify(reqId)},"method":${method.text},"route":${route.text}` +
      `,"status":${line.status},"durationMs":${line.durationMs},"principal":${JSON.stringify(principal)}` +
      `${line.aborted === true ? ',"aborted":true' : ''},"msg":${message.text}}\n`;
    const check =
      bindingsMayHoldSecret ||
      method.mayHoldSecret ||
      route.mayHoldSecret ||
      message.mayHoldSecret ||
      mayHoldSecret(reqId) ||
      mayHoldSecret(principal);
    stream.write(check ? redactText(text) : text);
  };
}
