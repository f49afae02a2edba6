import {
  AppError,
  type Authenticator,
  type BranchView,
  type CommandGateway,
  type CommandType,
  type ConsistencyWaiter,
  type Principal,
  type ProjectView,
  type RevisionView,
  type RowView,
  type TableView,
  type UserView,
} from '../../contracts/index.ts';
import type { LazyConnection, RequestContext, SystemOperations } from '../systemApi/operations/systemOperations.ts';

/** Test doubles for the query service's ports (no stores): fixed views, recorded commands and reads. */

const T0 = '2025-03-01T09:30:00.000Z';
export const FAKE_POSITION = 's:00000000000000000042';

export const fakeUser: UserView = {
  id: 'u1',
  username: 'ann',
  email: null,
  role: 'systemAdmin',
  isActive: true,
  organizationId: 'ann',
  createdAt: T0,
};
const project: ProjectView = { id: 'p1', organizationId: 'acme', name: 'blog', isPublic: false, rootBranchName: 'master', createdAt: T0 };
const branch: BranchView = {
  id: 'b1',
  projectId: 'p1',
  name: 'master',
  isRoot: true,
  createdAt: T0,
  headRevisionId: 'r0',
  draftRevisionId: 'r1',
  startRevisionId: 'r0',
  parent: null,
  touched: true,
};
const revision = (id: string): RevisionView => ({
  id,
  branchId: 'b1',
  sequence: id === 'r0' ? 0 : 1,
  parentId: id === 'r0' ? null : 'r0',
  isStart: id === 'r0',
  isHead: id === 'r0',
  isDraft: id === 'r1',
  hasChanges: id === 'r1',
  comment: '',
  createdAt: T0,
  committedAt: id === 'r0' ? T0 : null,
  mergedRevisionIds: [],
  pendingMergeRevisionIds: [],
});
const table: TableView = { id: 'posts', readonly: false, schema: { type: 'object' }, count: 1, createdAt: T0, updatedAt: T0 };
export const fakeRow: RowView = { id: 'hello', tableId: 'posts', createdAt: T0, updatedAt: T0, readonly: false, data: { title: 'Hi' } };

export function page<T>(nodes: readonly T[]): LazyConnection<T> {
  return {
    edges: nodes.map((node, i) => ({ cursor: `c${i}`, node })),
    pageInfo: {
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: nodes.length ? 'c0' : null,
      endCursor: nodes.length ? `c${nodes.length - 1}` : null,
    },
    totalCount: async () => nodes.length,
  };
}

function needUser(ctx: RequestContext): void {
  if (ctx.principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
}

export type ReadCall = { readonly name: string; readonly args: unknown };

/** SystemOperations over fixed data; anonymous callers get UNAUTHENTICATED, unknown names *_NOT_FOUND. */
export function fakeOperations(calls: ReadCall[] = []): SystemOperations {
  const record = (name: string, ctx: RequestContext, args?: unknown): void => {
    calls.push({ name, args });
    needUser(ctx);
  };
  return {
    me: async (ctx) => (record('me', ctx), fakeUser),
    myOrganizations: async (ctx, args) => (record('myOrganizations', ctx, args), page([{ id: 'acme', isPersonal: false, createdAt: T0 }])),
    organization: async (ctx, args) => (record('organization', ctx, args), { id: args.organizationId, isPersonal: false, createdAt: T0 }),
    myRole: async () => 'organizationOwner',
    usersOrganization: async (ctx, args) => (
      record('usersOrganization', ctx, args),
      page([{ user: { id: 'u1', username: 'ann' }, role: 'organizationOwner' }])
    ),
    projects: async (ctx, args) => (record('projects', ctx, args), page([project])),
    project: async (ctx, args) => {
      record('project', ctx, args);
      if (args.projectName !== 'blog') throw new AppError('PROJECT_NOT_FOUND', `Project "${args.projectName}" not found`);
      return project;
    },
    projectById: async () => project,
    usersProject: async (ctx, args) => (record('usersProject', ctx, args), page([])),
    branches: async (ctx, args) => (record('branches', ctx, args), page([branch])),
    branchesOfProject: async () => page([branch]),
    branch: async (ctx, args) => (record('branch', ctx, args), branch),
    branchById: async () => branch,
    revisions: async (ctx, args) => (record('revisions', ctx, args), page([revision('r1'), revision('r0')])),
    revisionsOfBranch: async () => page([revision('r1'), revision('r0')]),
    revision: async (ctx, args) => (record('revision', ctx, args), revision(args.revisionId)),
    tables: async (ctx, args) => (record('tables', ctx, args), page([table])),
    table: async (ctx, args) => (record('table', ctx, args), table),
    tableSchema: async (ctx, args) => (record('tableSchema', ctx, args), table.schema),
    foreignKeysTo: async (ctx, args) => (record('foreignKeysTo', ctx, args), ['comments']),
    foreignKeysBy: async (ctx, args) => (record('foreignKeysBy', ctx, args), []),
    rows: async (ctx, args) => (record('rows', ctx, args), page([fakeRow])),
    row: async (ctx, args) => (record('row', ctx, args), fakeRow),
    revisionChanges: async (ctx, args) => (
      record('revisionChanges', ctx, args),
      { revisionId: args.revisionId, compareWith: null, tables: [], totalRowChanges: 0 }
    ),
    rowChanges: async (ctx, args) => (record('rowChanges', ctx, args), page([])),
    rowHistory: async (ctx, args) => (record('rowHistory', ctx, args), page([])),
    projectEndpoints: async (ctx, args) => (record('projectEndpoints', ctx, args), page([])),
    revisionEndpoints: async (ctx, args) => (record('revisionEndpoints', ctx, args), []),
    endpoint: async (ctx, args) => {
      record('endpoint', ctx, args);
      throw new AppError('ENDPOINT_NOT_FOUND');
    },
    users: async (ctx, args) => (record('users', ctx, args), page([fakeUser])),
    user: async (ctx, args) => (record('user', ctx, args), fakeUser),
    searchUsers: async (ctx, args) => (record('searchUsers', ctx, args), page([{ id: 'u1', username: 'ann' }])),
    webhooks: async (ctx, args) => (record('webhooks', ctx, args), []),
    webhook: async (ctx, args) => {
      record('webhook', ctx, args);
      throw new AppError('WEBHOOK_NOT_FOUND');
    },
    webhookDeliveries: async (ctx, args) => (record('webhookDeliveries', ctx, args), page([])),
  };
}

export type CommandCall = { readonly type: CommandType; readonly input: unknown; readonly principal: Principal; readonly correlationId: string };

/** A gateway that records commands and answers plausible results; anonymous callers get UNAUTHENTICATED. */
export function fakeGateway(calls: CommandCall[] = []): CommandGateway {
  const resultOf = (type: CommandType, input: unknown): unknown => {
    switch (type) {
      case 'CreateRows':
      case 'UpdateRows':
      case 'PatchRows':
        return (input as { rows: { rowId: string }[] }).rows.map((r) => ({ ...fakeRow, id: r.rowId }));
      case 'DeleteRows':
        return { success: true, count: (input as { rowIds: string[] }).rowIds.length };
      case 'CreateTable':
      case 'UpdateTable':
      case 'RenameTable':
        return table;
      case 'CreateUser':
        return fakeUser;
      case 'CreateProject':
        return project;
      default:
        return { success: true };
    }
  };
  return {
    async execute(type, input, context) {
      calls.push({ type, input, principal: context.principal, correlationId: context.correlationId });
      if (context.principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED');
      return { result: resultOf(type, input) as never, position: FAKE_POSITION, projections: ['catalog'] };
    },
  };
}

/** `Bearer good` is user u1, `Bearer expired` fails, nothing is anonymous; login accepts ann/secret. */
export function fakeAuthenticator(): Authenticator & { logins: { username: string; clientIp: string }[] } {
  const logins: { username: string; clientIp: string }[] = [];
  return {
    logins,
    async authenticate(credentials) {
      if (credentials.authorization === 'Bearer good') return { kind: 'user', userId: 'u1', username: 'ann', via: 'jwt', sid: 's1', key: null };
      if (credentials.authorization !== null || credentials.accessTokenCookies.length > 0) throw new AppError('TOKEN_EXPIRED');
      return { kind: 'anonymous' };
    },
    async login(input) {
      logins.push({ username: input.username, clientIp: input.clientIp });
      if (input.username !== 'ann' || input.password !== 'secret') throw new AppError('INVALID_CREDENTIALS');
      return { accessToken: 'jwt', expiresIn: 1800, userId: 'u1', username: 'ann', familyId: 'f1' };
    },
    issueAccessToken: () => Promise.reject(new AppError('FORBIDDEN')),
  };
}

/** A waiter that reports `reached` for every wait and records them. */
export function fakeWaiter(reached = true): ConsistencyWaiter & { waits: { position: string; projections?: readonly string[] }[] } {
  const waits: { position: string; projections?: readonly string[] }[] = [];
  return {
    waits,
    async waitFor(position, _timeoutMs, projections) {
      waits.push({ position, ...(projections ? { projections } : {}) });
      return reached;
    },
  };
}
