import { AppError, assertCanRead, assertSystemAdmin, assertUserPrincipal, keyScopeOf, resolveOrganization } from '../../../contracts/index.ts';
import { parsePageArgs } from '../../paging/pageArgs.ts';
import { found, type OperationDeps } from './operationDeps.ts';
import type { SystemOperations } from './operationTypes.ts';

type DirectoryOperations = Pick<
  SystemOperations,
  'me' | 'myOrganizations' | 'organization' | 'myRole' | 'usersOrganization' | 'users' | 'user' | 'searchUsers'
>;

const SEARCH_MIN = 2;
const SEARCH_MAX = 64;

function searchText(value: unknown, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (!required) return null;
  } else if (typeof value === 'string' && value.length >= (required ? SEARCH_MIN : 0) && value.length <= SEARCH_MAX) {
    return value;
  }
  const message = `search must be a string of ${required ? SEARCH_MIN : 0} to ${SEARCH_MAX} characters`;
  throw new AppError('BAD_USER_INPUT', message, [{ path: '/search', message }]);
}

/** Users, organizations and memberships (system-api.md §3.2). */
export function createDirectoryOperations(deps: OperationDeps): DirectoryOperations {
  const { directory } = deps;
  const current = () => deps.systemState.current();

  return {
    async me(ctx) {
      assertUserPrincipal(ctx.principal);
      const user = await directory.user(ctx.principal.userId);
      return found(deps, user, 'USER_NOT_FOUND', 'User not found', ctx.principal.userId);
    },

    async myOrganizations(ctx, args) {
      assertUserPrincipal(ctx.principal);
      const page = parsePageArgs(args);
      return directory.organizationsOf(ctx.principal.userId, keyScopeOf(ctx.principal)?.organizationId ?? null, page);
    },

    async organization(ctx, { organizationId }) {
      const state = await current();
      resolveOrganization(state, ctx.principal, organizationId);
      assertCanRead(state, ctx.principal, 'Organization', { organizationId });
      const organization = await directory.organization(organizationId);
      return found(deps, organization, 'ORGANIZATION_NOT_FOUND', `Organization "${organizationId}" not found`, organizationId);
    },

    async myRole(ctx, organizationId) {
      if (ctx.principal.kind !== 'user') return null;
      const state = await current();
      return state.organizations.get(organizationId)?.members.get(ctx.principal.userId) ?? null;
    },

    async usersOrganization(ctx, args) {
      const state = await current();
      resolveOrganization(state, ctx.principal, args.organizationId);
      assertCanRead(state, ctx.principal, 'User', { organizationId: args.organizationId });
      return directory.organizationMembers(args.organizationId, parsePageArgs(args));
    },

    async users(ctx, args) {
      assertSystemAdmin(await current(), ctx.principal);
      const search = searchText(args.search, false);
      return directory.users(search === '' ? null : search, parsePageArgs(args));
    },

    async user(ctx, { userId }) {
      assertSystemAdmin(await current(), ctx.principal);
      const user = await directory.user(userId);
      if (user === null) throw new AppError('USER_NOT_FOUND', 'User not found');
      return user;
    },

    async searchUsers(ctx, args) {
      assertUserPrincipal(ctx.principal);
      const search = searchText(args.search, true) as string;
      return directory.userRefs(search, parsePageArgs(args));
    },
  };
}
