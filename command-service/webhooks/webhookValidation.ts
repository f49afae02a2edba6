import { AppError, addressLiteralOf, isPublicAddress, isReservedBranchName, isValidName, webhookEventTypeNames } from '../../contracts/index.ts';
import type { WebhookSettings } from '../../contracts/index.ts';

export const WEBHOOK_URL_MAX_LENGTH = 2000;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 1000;
export const WEBHOOK_BRANCH_NAMES_MAX = 100;

function badInput(field: string, message: string): AppError {
  return new AppError('BAD_USER_INPUT', `${field} ${message}`, [{ path: `/${field}`, message }]);
}

/** What the write side knows of the delivery address rules (changes.md §6.1). */
export type WebhookAddressRules = {
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: loopback and private receivers may be reached. */
  readonly allowPrivateAddresses: boolean;
};

/**
 * Absolute `http(s)://` URL, at most 2000 characters, without credentials (changes.md §6.1). A host that is a
 * non-public IP literal is refused unless private addresses are allowed: every delivery attempt would fail with
 * "disallowed address". Host names are left to delivery time, where the connected address is checked (a name may
 * resolve differently later).
 */
export function parseWebhookUrl(value: unknown, rules: WebhookAddressRules): string {
  if (typeof value !== 'string' || value.length === 0) throw badInput('url', 'must be an absolute http:// or https:// URL');
  if (value.length > WEBHOOK_URL_MAX_LENGTH) throw badInput('url', `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badInput('url', 'must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badInput('url', 'must be an absolute http:// or https:// URL');
  if (url.username !== '' || url.password !== '') throw badInput('url', 'must not contain credentials');
  const literal = addressLiteralOf(url);
  if (literal !== null && !rules.allowPrivateAddresses && !isPublicAddress(literal)) {
    throw badInput(
      'url',
      `must not point to a loopback, private or reserved address (${literal}): every delivery would be refused ` +
        'as "disallowed address"; the server allows such receivers only with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true',
    );
  }
  return value;
}

/** A non-empty subset of the event types of changes.md §6.3, without repeats (kept in the given order). */
export function parseWebhookTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badInput('types', 'must list at least one event type');
  const types: string[] = [];
  for (const [index, type] of value.entries()) {
    if (typeof type !== 'string' || !webhookEventTypeNames.includes(type)) {
      const message = `must be one of ${webhookEventTypeNames.join(', ')}`;
      throw new AppError('BAD_USER_INPUT', `types[${index}] ${message}`, [{ path: `/types/${index}`, message }]);
    }
    if (!types.includes(type)) types.push(type);
  }
  return types;
}

export function parseProjectFilter(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!isValidName(value)) throw badInput('projectName', 'must be a project name or null');
  return value;
}

/** null = all branches; else branch names or `$default` (the root branch). */
export function parseBranchFilter(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > WEBHOOK_BRANCH_NAMES_MAX) {
    throw badInput('branchNames', `must be null or list 1 to ${WEBHOOK_BRANCH_NAMES_MAX} branch names`);
  }
  for (const [index, name] of value.entries()) {
    if (name !== '$default' && (!isValidName(name) || isReservedBranchName(name))) {
      const message = 'must be a branch name or $default';
      throw new AppError('BAD_USER_INPUT', `branchNames[${index}] ${message}`, [{ path: `/branchNames/${index}`, message }]);
    }
  }
  return [...new Set(value as string[])];
}

export function parseDescription(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > WEBHOOK_DESCRIPTION_MAX_LENGTH) {
    throw badInput('description', `must be at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters`);
  }
  return value;
}

/** Settings of a new webhook, or of an update over `current` (omitted fields keep their value). */
export function parseWebhookSettings(
  input: Readonly<Record<string, unknown>>,
  rules: WebhookAddressRules,
  current?: WebhookSettings,
): WebhookSettings {
  const has = (field: string): boolean => current === undefined || Object.hasOwn(input, field);
  return {
    url: has('url') ? parseWebhookUrl(input.url, rules) : (current as WebhookSettings).url,
    types: has('types') ? parseWebhookTypes(input.types) : (current as WebhookSettings).types,
    projectName: has('projectName') ? parseProjectFilter(input.projectName) : (current as WebhookSettings).projectName,
    branchNames: has('branchNames') ? parseBranchFilter(input.branchNames) : (current as WebhookSettings).branchNames,
    description: has('description') ? parseDescription(input.description) : (current as WebhookSettings).description,
  };
}
