import { pino, type DestinationStream, type Logger } from 'pino';
import type { StrataConfig } from './config/strataConfig.ts';
import { redactLogValue, redactText } from './logging/redactLogValue.ts';

const serializeError = (err: Error): unknown => pino.stdSerializers.err(err);
const redactObject = (value: Record<string, unknown>): Record<string, unknown> =>
  redactLogValue(value, serializeError) as Record<string, unknown>;

/** Lines under 4 KiB wait at most this long before they are written. */
const FLUSH_INTERVAL_MS = 50;

/**
 * Stdout written in blocks of at least 4 KiB or every 50 ms, whichever comes first, instead of one write per line
 * (at thousands of requests per second the per-line writes cost more than the lines). pino flushes what is left
 * synchronously when the process exits.
 */
function stdoutLines(): DestinationStream {
  return pino.destination({ dest: process.stdout.fd, sync: false, minLength: 4096, periodicFlush: FLUSH_INTERVAL_MS });
}

/**
 * The one root logger: JSON lines (stdout, buffered, unless `destination` is given) at LOG_LEVEL with RFC 3339 `time` and
 * `level` labels. Redaction happens here, once, for every child: secret keys at any depth (headers, passwords,
 * tokens, key secrets, MCP session ids) and secrets inside any text of the final line (api_key query values,
 * URL credentials, bearer tokens, svc_ keys).
 */
export function createRootLogger(config: Pick<StrataConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = {
    level: config.logLevel,
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
  return pino(options, destination ?? stdoutLines());
}
