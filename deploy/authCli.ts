import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { isAppError, systemClock } from '../contracts/index.ts';
import type { EventStore } from '../contracts/index.ts';
import {
  formatWebhookAuditJsonLines,
  formatWebhookAuditTable,
  readWebhookAudit,
  createSqliteEventStore,
  formatApiKeyAuditJsonLines,
  formatApiKeyAuditTable,
  formatOAuthAuditJsonLines,
  formatOAuthAuditTable,
  readOAuthAudit,
  parseAuditTime,
  readApiKeyAudit,
  setUserPassword,
} from '../command-service/index.ts';
import type { ApiKeyAuditFilter, OAuthAuditFilter, WebhookAuditFilter } from '../command-service/index.ts';
import { cliConfig } from './cliConfig.ts';
import { createRootLogger } from './logger.ts';

/** What these commands need of the CLI's I/O (deploy/cli.ts CliIo). */
export type AuthCliIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a secret line (the new password); default: standard input, without echo on a TTY. */
  readonly readSecret?: (prompt: string) => Promise<string>;
};

const USAGE_ERROR = 2;

/** Reads one secret from stdin: raw mode without echo on a TTY, else everything piped in minus one final newline. */
async function readSecretFromStdin(prompt: string, stderr: (text: string) => void): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  stderr(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const done = (finish: () => void): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr('\n');
      finish();
    };
    function onData(chunk: string): void {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(() => resolve(value));
        if (ch === '\u0003') return done(() => reject(new Error('interrupted')));
        value = ch === '\u007f' || ch === '\b' ? [...value].slice(0, -1).join('') : value + ch;
      }
    }
    stdin.on('data', onData);
  });
}

type Opened = { readonly eventStore: EventStore; readonly log: Logger };

/** Opens only the event store of the configured DATA_DIR (the CLI needs no views or queue). */
async function withEventStore(io: AuthCliIo, run: (opened: Opened) => Promise<number>): Promise<number> {
  const config = cliConfig(io);
  if (config === null) return 1;
  if (config.eventStore !== 'sqlite') {
    io.stderr('EVENT_STORE=esdb is not available in this build yet\n');
    return 1;
  }
  const log = createRootLogger(config, { write: (line: string) => io.stderr(line) });
  await mkdir(config.dataDir, { recursive: true });
  const eventStore = createSqliteEventStore({ file: join(config.dataDir, 'events.db'), log: log.child({ component: 'eventStore' }) });
  try {
    return await run({ eventStore, log });
  } finally {
    await eventStore.close();
  }
}

type AuditOptions = { key?: string; webhook?: string; org?: string; user?: string; since?: string; until?: string; json?: boolean };
type TimeFilter = { sinceMs?: number; untilMs?: number };

/** --since/--until as milliseconds; null (after printing the usage error) when one cannot be read. */
function timeFilter(io: AuthCliIo, options: { since?: string; until?: string }): TimeFilter | null {
  const now = Date.now();
  const filter: TimeFilter = {};
  for (const [name, text] of [
    ['since', options.since],
    ['until', options.until],
  ] as const) {
    if (text === undefined) continue;
    const ms = parseAuditTime(text, now);
    if (ms === null) {
      io.stderr(`error: --${name} must be an ISO 8601 time or a duration such as 7d or 12h, got "${text}"\n`);
      return null;
    }
    filter[name === 'since' ? 'sinceMs' : 'untilMs'] = ms;
  }
  return filter;
}

async function auditWebhooks(io: AuthCliIo, options: AuditOptions): Promise<number> {
  const times = timeFilter(io, options);
  if (times === null) return USAGE_ERROR;
  const filter: { -readonly [K in keyof WebhookAuditFilter]: WebhookAuditFilter[K] } = { ...times };
  if (options.webhook !== undefined) filter.webhookId = options.webhook;
  if (options.org !== undefined) filter.organizationId = options.org;
  if (options.user !== undefined) filter.userId = options.user;
  return withEventStore(io, async ({ eventStore }) => {
    const entries = await readWebhookAudit(eventStore, filter);
    io.stdout(options.json ? formatWebhookAuditJsonLines(entries) : formatWebhookAuditTable(entries));
    return 0;
  });
}

async function auditApiKeys(io: AuthCliIo, options: AuditOptions): Promise<number> {
  const times = timeFilter(io, options);
  if (times === null) return USAGE_ERROR;
  const filter: { -readonly [K in keyof ApiKeyAuditFilter]: ApiKeyAuditFilter[K] } = { ...times };
  if (options.key !== undefined) filter.keyId = options.key;
  if (options.org !== undefined) filter.organizationId = options.org;
  if (options.user !== undefined) filter.userId = options.user;
  return withEventStore(io, async ({ eventStore }) => {
    const entries = await readApiKeyAudit(eventStore, filter);
    io.stdout(options.json ? formatApiKeyAuditJsonLines(entries) : formatApiKeyAuditTable(entries));
    return 0;
  });
}

type OAuthAuditOptions = { user?: string; client?: string; since?: string; until?: string; json?: boolean };

async function auditOAuth(io: AuthCliIo, options: OAuthAuditOptions): Promise<number> {
  const filter: { -readonly [K in keyof OAuthAuditFilter]: OAuthAuditFilter[K] } = {};
  const times = timeFilter(io, options);
  if (times === null) return USAGE_ERROR;
  Object.assign(filter, times);
  if (options.user !== undefined) filter.userId = options.user;
  if (options.client !== undefined) filter.clientId = options.client;
  return withEventStore(io, async ({ eventStore }) => {
    const entries = await readOAuthAudit(eventStore, filter);
    io.stdout(options.json ? formatOAuthAuditJsonLines(entries) : formatOAuthAuditTable(entries));
    return 0;
  });
}

async function setPassword(io: AuthCliIo, username: string): Promise<number> {
  let password: string;
  try {
    password = await (io.readSecret ?? ((prompt) => readSecretFromStdin(prompt, io.stderr)))('New password: ');
  } catch {
    io.stderr('error: no password read\n');
    return 1;
  }
  return withEventStore(io, async ({ eventStore, log }) => {
    try {
      await setUserPassword({ eventStore, clock: systemClock, log }, { username, password });
    } catch (err) {
      if (isAppError(err, 'USER_NOT_FOUND') || isAppError(err, 'INVALID_PASSWORD')) {
        io.stderr(`error: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
    io.stdout(`Password of user "${username}" changed; all of the user's sessions are revoked.\n`);
    return 0;
  });
}

/** Adds `strata audit api-keys`, `strata audit webhooks`, `strata audit oauth` and `strata users set-password` (operations.md §5) to the CLI program. */
export function addAuthCommands(program: Command, io: AuthCliIo, setResult: (code: number) => void): void {
  const audit = program.command('audit').description('audit trails read from the event log');
  audit
    .command('webhooks')
    .description('webhook events (created, updated, rotated, deleted, disabled, pinged, redelivered) from the event log; never secrets')
    .option('--webhook <id>', 'only this webhook')
    .option('--org <id>', 'only webhooks of this organization')
    .option('--user <id>', 'only events acted by this user or service key')
    .option('--since <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--until <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--json', 'JSON Lines output')
    .action(async (options: AuditOptions) => {
      setResult(await auditWebhooks(io, options));
    });
  audit
    .command('oauth')
    .description('OAuth events (client-registered, grant-approved, grant-revoked, token/code reuse) in log order; never codes, tokens or secrets')
    .option('--user <id>', 'only events of this user')
    .option('--client <id>', 'only events of this client')
    .option('--since <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--until <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--json', 'JSON Lines output')
    .action(async (options: OAuthAuditOptions) => {
      setResult(await auditOAuth(io, options));
    });
  audit
    .command('api-keys')
    .description('API-key events (created, rotated, revoked) from the event log, in log order; never secrets or hashes')
    .option('--key <id>', 'only this key')
    .option('--org <id>', 'only keys of this organization')
    .option('--user <id>', 'only keys owned by, or events acted by, this user')
    .option('--since <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--until <time>', 'ISO 8601 time or a duration back from now (7d, 12h)')
    .option('--json', 'JSON Lines output')
    .action(async (options: AuditOptions) => {
      setResult(await auditApiKeys(io, options));
    });
  program
    .command('users')
    .description('user administration')
    .command('set-password')
    .description("read a new password from standard input, set it, and revoke all of the user's sessions")
    .argument('<username>', 'exact username')
    .action(async (username: string) => {
      setResult(await setPassword(io, username));
    });
}
