import { pino, type DestinationStream, type Logger } from 'pino';
import type { StrataConfig } from './config/strataConfig.ts';
import { redactLogValue, redactText } from './logging/redactLogValue.ts';

const serializeError = (err: Error): unknown => pino.stdSerializers.err(err);
const redactObject = (value: Record<string, unknown>): Record<string, unknown> =>
  redactLogValue(value, serializeError) as Record<string, unknown>;

/**
 * The one root logger: JSON lines (stdout unless `destination` is given) at LOG_LEVEL with RFC 3339 `time` and
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
  return destination === undefined ? pino(options) : pino(options, destination);
}
