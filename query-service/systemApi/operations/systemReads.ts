import type { Connection } from '../../../contracts/index.ts';
import { resolveConnection, type LazyConnection, type RequestContext, type SystemOperations } from './systemOperations.ts';
import type { InputRecord } from './systemWrites.ts';

/** Reads that edges call by name: every system query plus the REST-only `tableSchema` and `revisionEndpoints`. */
export type ReadName = Exclude<
  keyof SystemOperations,
  'myRole' | 'projectById' | 'branchesOfProject' | 'branchById' | 'revisionsOfBranch' | 'foreignKeysTo' | 'foreignKeysBy'
>;

const readNames: ReadonlySet<string> = new Set<ReadName>([
  'me',
  'myOrganizations',
  'organization',
  'usersOrganization',
  'projects',
  'project',
  'usersProject',
  'branches',
  'branch',
  'revisions',
  'revision',
  'tables',
  'table',
  'tableSchema',
  'rows',
  'row',
  'revisionChanges',
  'rowChanges',
  'rowHistory',
  'projectEndpoints',
  'revisionEndpoints',
  'endpoint',
  'users',
  'user',
  'searchUsers',
  'webhooks',
  'webhook',
  'webhookDeliveries',
]);

export function isReadName(name: string): name is ReadName {
  return readNames.has(name);
}

/** Runs one read with a checked input (GraphQL `data`, or REST path ids + query string / body). */
export function runRead(ops: SystemOperations, name: ReadName, ctx: RequestContext, input: InputRecord): Promise<unknown> {
  if (name === 'me') return ops.me(ctx);
  // The input was coerced against the operation's input type, whose fields are the method's arguments.
  const method = ops[name] as (ctx: RequestContext, args: InputRecord) => Promise<unknown>;
  return method.call(ops, ctx, input);
}

export function isLazyConnection(value: unknown): value is LazyConnection<unknown> {
  return typeof value === 'object' && value !== null && 'edges' in value && typeof (value as { totalCount?: unknown }).totalCount === 'function';
}

/** The REST body of a read: connections with their count resolved. */
export async function restReadBody(value: unknown): Promise<unknown> {
  return isLazyConnection(value) ? ((await resolveConnection(value)) satisfies Connection<unknown>) : value;
}
