export const REDACTED = '[REDACTED]';

/**
 * Keys whose values never reach a log line, compared case-insensitively with `-` and `_` ignored: credential
 * headers, password fields, refresh tokens, key secrets and MCP session ids (operations.md §6).
 */
const SECRET_KEYS = new Set(
  [
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-api-key',
    'api_key',
    'apiKey',
    'password',
    'oldPassword',
    'newPassword',
    'adminPassword',
    'jwtSecret',
    'secret',
    'keySecret',
    'accessToken',
    'refreshToken',
    'token',
    'svc_at',
    'svc_rt',
    'svc_session',
    'mcp-session-id',
    'mcpSessionId',
    'sessionId',
  ].map(normaliseKey),
);

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/** Values found inside free text: api_key query values, credentials in URLs, bearer tokens and svc_ secrets. */
const TEXT_PATTERNS: readonly [RegExp, string][] = [
  [/([?&;]api_key=)[^&#\s"']*/gi, `$1${REDACTED}`],
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s:"']*:[^/@\s"']*@/gi, `$1${REDACTED}@`],
  [/(\bBearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`],
  [/\bsvc_[A-Za-z0-9_-]{16,}/g, REDACTED],
];

/** Cheap first look: a text none of the patterns could match (most log lines) skips the four replacements. */
const MAY_HOLD_SECRET = /api_key|:\/\/|bearer|svc_/i;

/** False when none of redactText's patterns could match `text` (a cheap test). */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text);
}

/** Redacts secret-looking parts of a string; returns the same string when nothing matched. */
export function redactText(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normaliseKey(key));
}

const MAX_DEPTH = 8;

/**
 * Deep copy-on-write redaction of secret keys in a value about to be logged: the caller's objects are never
 * mutated, and an unchanged subtree is returned as is. `serializeError` turns Errors into plain objects first
 * (pino's serializer) so their fields are redacted too. Secrets inside free text are left to `redactText`.
 */
export function redactLogValue(value: unknown, serializeError: (err: Error) => unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return value;
  if (value instanceof Error) return redactLogValue(plainCopy(serializeError(value)), serializeError, depth);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item: unknown) => {
      const next = redactLogValue(item, serializeError, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const next = isSecretKey(key) && item !== undefined && item !== null ? REDACTED : redactLogValue(item, serializeError, depth + 1);
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** pino's serialized error keeps the raw Error under a non-enumerable `raw`; keep only enumerable own fields. */
function plainCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = (value as Record<string, unknown>)[key];
  if (value instanceof Object && 'message' in value && !('message' in out)) out.message = (value as { message: unknown }).message;
  if (value instanceof Object && 'stack' in value && !('stack' in out)) out.stack = (value as { stack: unknown }).stack;
  return out;
}
