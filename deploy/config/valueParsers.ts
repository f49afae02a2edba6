import { isIP } from 'node:net';
import { parsed, rejected, type Parsed } from './envReader.ts';
import { ALL_ROLES, type RoleName } from './strataConfig.ts';

const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 * 1024 };
const MAX_BODY_LIMIT = 1024 * 1024 * 1024;

/** `512`, `100kb`, `10mb` (case-insensitive; no suffix = bytes); 1 byte to 1024mb. */
export function parseBodyLimit(text: string): Parsed<number> {
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(text);
  const expected = 'a size such as 512b, 100kb or 10mb (between 1b and 1024mb)';
  if (!match) return rejected(expected);
  const bytes = Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > MAX_BODY_LIMIT) return rejected(expected);
  return parsed(bytes);
}

const SIZE_UNITS: Readonly<Record<string, number>> = { ...UNITS, gb: 1024 * 1024 * 1024 };

/** IMPORT_MAX_BYTES: `512mb`, `1gb`, `4gb` (case-insensitive; no suffix = bytes); 1 byte to 1024gb. */
export function parseImportLimit(text: string): Parsed<number> {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(text);
  const expected = 'a size such as 100mb or 1gb (between 1b and 1024gb)';
  if (!match) return rejected(expected);
  const bytes = Number(match[1]) * (SIZE_UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
  if (!Number.isSafeInteger(bytes) || bytes < 1 || bytes > 1024 * SIZE_UNITS.gb!) return rejected(expected);
  return parsed(bytes);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  const family = isIP(entry.slice(0, slash));
  const bits = entry.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** Hop count, or a comma list of IPs/CIDRs and the names loopback/linklocal/uniquelocal. `true` and `*` are refused. */
export function parseTrustProxy(text: string): Parsed<number | readonly string[]> {
  const expected = 'a hop count or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (true and * are not allowed)';
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return Number.isSafeInteger(hops) && hops <= 100 ? parsed(hops) : rejected(expected);
  }
  const entries = text.split(',').map((e) => e.trim());
  const valid = entries.every((e) => PROXY_NAMES.has(e.toLowerCase()) || isAddressOrCidr(e));
  if (!valid) return rejected(expected);
  return parsed(entries.map((e) => (PROXY_NAMES.has(e.toLowerCase()) ? e.toLowerCase() : e)));
}

/** An `http:`/`https:` origin with nothing after the host and port; returns the normalised origin. */
export function parseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  const rest = text.replace(/\/$/, '');
  return rest.toLowerCase() === url.origin.toLowerCase() ? url.origin : null;
}

export function parsePublicUrl(text: string): Parsed<string> {
  const origin = parseOrigin(text);
  return origin === null ? rejected('an http or https origin such as https://data.example.com (no path)') : parsed(origin);
}

/** Comma list of exact origins; `*` and anything with a path are refused. */
export function parseCorsOrigins(text: string): Parsed<readonly string[]> {
  const expected = 'a comma-separated list of exact origins such as https://admin.example.com (* is not allowed)';
  const origins: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const origin = parseOrigin(entry);
    if (origin === null) return rejected(expected);
    if (!origins.includes(origin)) origins.push(origin);
  }
  return parsed(origins);
}

const HOST_ENTRY = /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/**
 * ALLOWED_HOSTS (auth.md §6.4): `*` (host validation off), or a comma list of host names without scheme or port,
 * lower-cased; a leading `.` allows the domain and its subdomains (`.example.com`).
 */
export function parseAllowedHosts(text: string): Parsed<'*' | readonly string[]> {
  const expected = 'a comma-separated list of host names such as data.example.com or .example.com (no scheme or port), or * alone';
  if (text === '*') return parsed('*');
  const hosts: string[] = [];
  for (const entry of text.split(',').map((e) => e.trim().toLowerCase())) {
    if (!HOST_ENTRY.test(entry) || entry === '.') return rejected(expected);
    if (!hosts.includes(entry)) hosts.push(entry);
  }
  return parsed(hosts);
}

/** Comma list of roles; duplicates ignored; canonical order. */
export function parseRoles(text: string): Parsed<readonly RoleName[]> {
  const names = text.split(',').map((r) => r.trim().toLowerCase());
  const expected = `a comma-separated subset of ${ALL_ROLES.join(',')}`;
  if (names.some((n) => !(ALL_ROLES as readonly string[]).includes(n))) return rejected(expected);
  return parsed(ALL_ROLES.filter((role) => names.includes(role)));
}

/** A URL whose scheme is one of `schemes` (without the colon). The value may hold credentials: never echoed. */
export function urlWithScheme(schemes: readonly string[], example: string): (text: string) => Parsed<string> {
  return (text) => {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\/[^\s]+$/i.exec(text)?.[1]?.toLowerCase();
    return scheme !== undefined && schemes.includes(scheme)
      ? parsed(text)
      : rejected(`a ${schemes.map((s) => `${s}://`).join(' or ')} URL (for example ${example})`);
  };
}

export function parseHttpUrl(text: string): Parsed<string> {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return parsed(text.replace(/\/+$/, ''));
  } catch {
    // falls through to the rejection below
  }
  return rejected('an http or https URL');
}

/** WEBHOOK_RETRY_SCHEDULE_MS: 1-20 comma-separated delays in milliseconds (each 0 to 7 days). */
export function parseRetrySchedule(text: string): Parsed<readonly number[]> {
  const parts = text.split(',').map((part) => part.trim());
  const expected = 'a comma list of 1 to 20 delays in milliseconds, e.g. 5000,30000,120000';
  if (parts.length < 1 || parts.length > 20 || parts.some((part) => !/^\d+$/.test(part) || Number(part) > 604_800_000)) return rejected(expected);
  return parsed(parts.map(Number));
}
