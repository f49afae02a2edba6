// docs/reference/limits.md from the constants that enforce each limit: every value is read from the module that
// holds it, so the page shows what the code enforces; the configurable limits link their variable.
import { generatedBanner, table } from './markdown.ts';

type Unit = 'count' | 'bytes' | 'ms' | 'seconds' | 'days' | 'characters';

interface Limit {
  readonly what: string;
  readonly module: string;
  /** Export name, then a path into it: `QUERY_LIMITS.maxDepth`. */
  readonly constant: string;
  readonly unit: Unit;
  readonly exceeded: string;
}

const L = (what: string, module: string, constant: string, unit: Unit, exceeded: string): Limit => ({
  what,
  module,
  constant,
  unit,
  exceeded,
});

const GRAPHQL = 'query-service/graphqlKit/queryLimits.ts';
const TOO_COMPLEX = '`400 QUERY_TOO_COMPLEX`';
const BAD_INPUT = '`400 BAD_USER_INPUT`';
const API_KEYS = 'command-service/apiKeys/apiKeyValidation.ts';
const WEBHOOKS = 'command-service/webhooks/webhookValidation.ts';

const INPUT: readonly Limit[] = [
  L(
    'JSON nesting of a body, GraphQL variables, `where`/`orderBy` JSON, MCP messages',
    'contracts/api/jsonNesting.ts',
    'MAX_JSON_DEPTH',
    'count',
    '`400 BAD_REQUEST`',
  ),
  L('Page size `first`: default', 'query-service/paging/pageArgs.ts', 'DEFAULT_PAGE_SIZE', 'count', '—'),
  L('Page size `first`: maximum', 'query-service/paging/pageArgs.ts', 'MAX_PAGE_SIZE', 'count', BAD_INPUT),
  L('Rows per bulk request, ids per bulk delete', 'command-service/branches/branchCommand.ts', 'MAX_BULK_ROWS', 'count', BAD_INPUT),
  L('Patch operations (row patch, `updateTable`)', 'contracts/tables/patchOperations.ts', 'MAX_PATCH_OPERATIONS', 'count', BAD_INPUT),
  L('`where` nesting', 'query-service/rows/rowWhere.ts', 'MAX_WHERE_DEPTH', 'count', BAD_INPUT),
  L('`where` conditions', 'query-service/rows/rowWhere.ts', 'MAX_WHERE_CONDITIONS', 'count', BAD_INPUT),
  L('`in` values', 'query-service/rows/rowOperands.ts', 'MAX_IN_VALUES', 'count', BAD_INPUT),
  L('`orderBy` entries', 'query-service/rows/rowOrderBy.ts', 'MAX_ORDER_BY', 'count', BAD_INPUT),
  L('GraphQL depth', GRAPHQL, 'QUERY_LIMITS.maxDepth', 'count', TOO_COMPLEX),
  L('GraphQL depth under `__schema`/`__type`', GRAPHQL, 'QUERY_LIMITS.maxIntrospectionDepth', 'count', TOO_COMPLEX),
  L('GraphQL aliases per document', GRAPHQL, 'QUERY_LIMITS.maxAliases', 'count', TOO_COMPLEX),
  L('GraphQL document size', GRAPHQL, 'QUERY_LIMITS.maxBytes', 'bytes', TOO_COMPLEX),
  L('GraphQL document tokens', GRAPHQL, 'QUERY_LIMITS.maxTokens', 'count', TOO_COMPLEX),
  L('GraphQL brackets open at once (checked before parsing)', GRAPHQL, 'QUERY_LIMITS.maxNesting', 'count', TOO_COMPLEX),
  L('GraphQL cost (a connection multiplies by its `first`)', GRAPHQL, 'QUERY_LIMITS.maxCost', 'count', TOO_COMPLEX),
  L(
    'Identifier length (username, organization, project, branch, table, row)',
    'contracts/domain/identifiers.ts',
    'IDENTIFIER_MAX_LENGTH',
    'characters',
    '`400 INVALID_*`',
  ),
  L('Password: minimum', 'contracts/domain/identifiers.ts', 'PASSWORD_MIN_LENGTH', 'characters', '`400 INVALID_PASSWORD`'),
  L('Password: maximum', 'contracts/domain/identifiers.ts', 'PASSWORD_MAX_LENGTH', 'characters', '`400 INVALID_PASSWORD`'),
  L('Revision comment', 'command-service/branches/branchCommand.ts', 'MAX_COMMENT_LENGTH', 'characters', BAD_INPUT),
  L('Details per error', 'contracts/errors/appError.ts', 'MAX_ERROR_DETAILS', 'count', 'truncated'),
];

const DATA: readonly Limit[] = [
  L('Tables per revision', 'command-service/branches/branchCommand.ts', 'MAX_TABLES_PER_REVISION', 'count', '`409 LIMIT_EXCEEDED`'),
  L('Table schema depth', 'contracts/tables/tableSchema.ts', 'MAX_SCHEMA_DEPTH', 'count', '`400 INVALID_SCHEMA`'),
  L('Table schema nodes', 'contracts/tables/tableSchema.ts', 'MAX_SCHEMA_NODES', 'count', '`400 INVALID_SCHEMA`'),
  L('Table schema size', 'contracts/tables/tableSchema.ts', 'MAX_SCHEMA_BYTES', 'bytes', '`400 INVALID_SCHEMA`'),
  L('Indexed fields per table (`x-index` and `x-unique`)', 'contracts/tables/tableSchema.ts', 'MAX_INDEXED_FIELDS', 'count', '`400 INVALID_SCHEMA`'),
  L('Row changes per merge or restore', 'contracts/commands/draftChanges.ts', 'MAX_DRAFT_ROW_CHANGES', 'count', '`409 LIMIT_EXCEEDED`'),
  L(
    'Rows per table or bundle import (above 100,000 staged; KurrentDB: 100,000)',
    'contracts/commands/draftChanges.ts',
    'MAX_IMPORT_ROWS',
    'count',
    '`400 IMPORT_INVALID` (KurrentDB above 100,000: `409 LIMIT_EXCEEDED`)',
  ),
  L('Field changes listed per changed row', 'query-service/changes/fieldChanges.ts', 'MAX_FIELD_CHANGES', 'count', 'truncated'),
  L(
    'Sort orders indexed per process (later ones run unindexed)',
    'query-service/readers/rowIndexes.ts',
    'MAX_ROW_INDEXES',
    'count',
    'warning logged',
  ),
  L(
    'Declared field paths indexed per process (later ones run unindexed)',
    'query-service/readers/rowIndexes.ts',
    'MAX_FIELD_INDEXES',
    'count',
    'warning logged',
  ),
  L('Append retries on a concurrent write', 'command-service/commandHandler.ts', 'MAX_APPEND_RETRIES', 'count', '`409 CONCURRENT_MODIFICATION`'),
];

const ACCESS: readonly Limit[] = [
  L('API key name', API_KEYS, 'API_KEY_NAME_MAX_LENGTH', 'characters', BAD_INPUT),
  L('API key scope entries per dimension', API_KEYS, 'API_KEY_SCOPE_MAX_ENTRIES', 'count', BAD_INPUT),
  L('Service-key permission rules', API_KEYS, 'API_KEY_MAX_RULES', 'count', BAD_INPUT),
  L('Personal key expiry: default', API_KEYS, 'API_KEY_EXPIRY_DAYS.personal.default', 'days', '—'),
  L('Personal key expiry: maximum', API_KEYS, 'API_KEY_EXPIRY_DAYS.personal.max', 'days', BAD_INPUT),
  L('Service key expiry: default', API_KEYS, 'API_KEY_EXPIRY_DAYS.service.default', 'days', '—'),
  L('Service key expiry: maximum', API_KEYS, 'API_KEY_EXPIRY_DAYS.service.max', 'days', BAD_INPUT),
  L('API key random part (after `svc_`)', 'command-service/apiKeys/apiKeyFormat.ts', 'API_KEY_RANDOM_LENGTH', 'characters', '—'),
  L('`lastUsedAt` update interval', 'command-service/apiKeys/apiKeyUsage.ts', 'API_KEY_USAGE_INTERVAL_MS', 'ms', '—'),
  L('JWT clock tolerance', 'command-service/sessions/jwt.ts', 'JWT_CLOCK_TOLERANCE_SECONDS', 'seconds', '—'),
  L('OAuth client registrations per IP per hour', 'command-service/oauth/oauthClients.ts', 'REGISTRATIONS_PER_IP_PER_HOUR', 'count', '`429`'),
  L('OAuth authorization code lifetime', 'command-service/oauth/oauthGrants.ts', 'CODE_TTL_MS', 'ms', '`invalid_grant`'),
  L('CORS preflight cache (`Access-Control-Max-Age`)', 'query-service/http/cors.ts', 'CORS_MAX_AGE_SECONDS', 'seconds', '—'),
];

const WEBHOOK_LIMITS: readonly Limit[] = [
  L('Webhooks per organization', 'contracts/webhooks/webhookViews.ts', 'MAX_WEBHOOKS_PER_ORGANIZATION', 'count', '`409 LIMIT_EXCEEDED`'),
  L('Webhook URL', WEBHOOKS, 'WEBHOOK_URL_MAX_LENGTH', 'characters', BAD_INPUT),
  L('Webhook description', WEBHOOKS, 'WEBHOOK_DESCRIPTION_MAX_LENGTH', 'characters', BAD_INPUT),
  L('Branch names per webhook filter', WEBHOOKS, 'WEBHOOK_BRANCH_NAMES_MAX', 'count', BAD_INPUT),
  L('Attempts kept per delivery', 'contracts/webhooks/webhookViews.ts', 'MAX_KEPT_ATTEMPTS', 'count', 'oldest dropped'),
  L('Old secret keeps signing after a rotation', 'contracts/webhooks/webhookViews.ts', 'SECRET_OVERLAP_MS', 'ms', '—'),
  L('Deliveries kept after their event', 'projection-worker/webhooks/webhookSender.ts', 'DELIVERY_RETENTION_MS', 'ms', 'deleted'),
];

const TRANSFER = 'deploy/transferHttp.ts';
const CLI_TRANSFERS: readonly Limit[] = [
  L(
    'Time the server may leave a request waiting without a byte moving (connect, upload, answer)',
    TRANSFER,
    'TRANSFER_LIMITS.stallMs',
    'ms',
    'exit 1',
  ),
  L('JSON answer (it must also arrive whole within that time of its headers)', TRANSFER, 'TRANSFER_LIMITS.maxJsonBytes', 'bytes', 'exit 1'),
  L('Error body read and printed (one line)', TRANSFER, 'TRANSFER_LIMITS.maxErrorBytes', 'bytes', 'cut'),
];

/** Variables of configuration.md that set a limit. */
const CONFIGURABLE = [
  'BODY_LIMIT',
  'QUERY_TIMEOUT_MS',
  'IMPORT_MAX_BYTES',
  'API_KEY_MAX_PER_USER',
  'API_KEY_MAX_SERVICE_PER_ORG',
  'LOGIN_MAX_FAILURES',
  'LOGIN_MAX_FAILURES_PER_IP',
  'LOGIN_WINDOW_MS',
  'JWT_ACCESS_TOKEN_TTL_SECONDS',
  'JWT_REFRESH_TOKEN_TTL_DAYS',
  'REFRESH_FAMILY_MAX_AGE_DAYS',
  'JWT_REFRESH_GRACE_PERIOD_MS',
  'CONSISTENCY_TIMEOUT_MS',
  'MCP_MAX_SESSIONS',
  'MCP_MAX_ANONYMOUS_SESSIONS_PER_IP',
  'MCP_SESSION_IDLE_MS',
  'MCP_SESSION_MAX_AGE_MS',
  'MCP_ANONYMOUS_SESSION_IDLE_MS',
  'EVENT_STREAMS_PER_PRINCIPAL',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_CONCURRENCY',
  'WEBHOOK_DISABLE_AFTER_FAILURES',
  'OAUTH_MAX_CLIENTS',
  'OAUTH_ACCESS_TOKEN_TTL_SECONDS',
  'OAUTH_REFRESH_TOKEN_TTL_DAYS',
];

const grouped = (n: number): string => n.toLocaleString('en-US');

function format(value: number, unit: Unit): string {
  switch (unit) {
    case 'bytes':
      return value % 1024 === 0 ? `${grouped(value / 1024)} KiB` : `${grouped(value)} bytes`;
    case 'ms':
      if (value % 86_400_000 === 0) return `${grouped(value / 86_400_000)} days`;
      if (value % 3_600_000 === 0) return `${grouped(value / 3_600_000)} hours`;
      return value % 1000 === 0 ? `${grouped(value / 1000)} s` : `${grouped(value)} ms`;
    case 'count':
      return grouped(value);
    default:
      return `${grouped(value)} ${unit}`;
  }
}

async function valueOf(limit: Limit): Promise<number> {
  const [name = '', ...path] = limit.constant.split('.');
  const module = (await import(`../../${limit.module}`)) as Record<string, unknown>;
  let value: unknown = module[name];
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  if (typeof value !== 'number') throw new Error(`${limit.module} ${limit.constant} is not a number`);
  return value;
}

async function section(title: string, limits: readonly Limit[]): Promise<string[]> {
  const rows: string[][] = [];
  for (const limit of limits) {
    rows.push([limit.what, format(await valueOf(limit), limit.unit), limit.exceeded, `\`${limit.constant}\` in \`${limit.module}\``]);
  }
  return [`## ${title}`, '', table(['Limit', 'Value', 'When exceeded', 'Defined by'], rows), ''];
}

export async function renderLimitsPage(configured: ReadonlySet<string>): Promise<string> {
  const variables = CONFIGURABLE.filter((v) => configured.has(v))
    .map((v) => `[\`${v}\`](configuration.md#${v.toLowerCase()})`)
    .join(', ');
  return [
    generatedBanner(['the constants named in the table']),
    '',
    '# Limits',
    '',
    'Every input is bounded before it can cost more than its share (operations.md §7). Limits are checked on every',
    'surface (system and generated REST and GraphQL, MCP) before any recursive code sees the input; no input may',
    'produce a `500`. Each value below is read from the constant that enforces it.',
    '',
    ...(await section('Requests and queries', INPUT)),
    ...(await section('Data', DATA)),
    ...(await section('Access', ACCESS)),
    ...(await section('Webhooks', WEBHOOK_LIMITS)),
    ...(await section('CLI transfers (`strata export|import|bundle`)', CLI_TRANSFERS)),
    '## Configurable limits',
    '',
    `Set by environment variables, with their defaults and ranges in [configuration](configuration.md): ${variables}.`,
    '',
  ].join('\n');
}
