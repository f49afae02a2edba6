import { invariant } from '../../contracts/index.ts';
import type {
  Filter,
  OrganizationMemberView,
  OrganizationRole,
  OrganizationView,
  ProjectMemberView,
  ProjectRole,
  SystemRole,
  UserRefView,
  UserView,
  ViewDoc,
  ViewStore,
} from '../../contracts/index.ts';
import { and, eq, within } from '../paging/filters.ts';
import { fieldKey, keysetPage } from '../paging/keysetPage.ts';
import type { PageRequest } from '../paging/pageArgs.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';

const DIRECTORY = 'directory';

function userView(doc: ViewDoc): UserView {
  return {
    id: doc.id as string,
    username: doc.username as string,
    email: (doc.email as string | null) ?? null,
    role: doc.role as SystemRole,
    isActive: doc.isActive as boolean,
    organizationId: doc.organizationId as string,
    createdAt: doc.createdAt as string,
  };
}

function organizationView(doc: ViewDoc): OrganizationView {
  return { id: doc.id as string, isPersonal: doc.isPersonal as boolean, createdAt: doc.createdAt as string };
}

const userRef = (doc: ViewDoc): UserRefView => ({ id: doc.userId as string, username: doc.username as string });

/** The largest string with a given prefix bound: usernames never contain U+10FFFF. */
function prefixFilter(field: string, prefix: string): Filter {
  return and(
    { kind: 'compare', ref: { field }, op: 'gte', value: prefix },
    { kind: 'compare', ref: { field }, op: 'lt', value: `${prefix}\u{10FFFF}` },
  );
}

const byUsername = [fieldKey('username'), fieldKey('id')];

/** Reads of the `directory` projection: users, organizations, memberships (orders of system-api.md §2). */
export function createDirectoryReader(store: ViewStore) {
  return {
    async user(userId: string): Promise<UserView | null> {
      const doc = await store.get(DIRECTORY, 'users', { id: userId });
      return doc === null ? null : userView(doc);
    },

    /** Users by username; `search` = case-insensitive username prefix. */
    users(search: string | null, page: PageRequest): Promise<LazyConnection<UserView>> {
      const filter = search === null ? { kind: 'all' as const } : prefixFilter('usernameLower', search.toLowerCase());
      const query = { projection: DIRECTORY, collection: 'users', filter, keys: byUsername, queryKey: { users: search } };
      return keysetPage(store, query, page, (docs) => docs.map(userView));
    },

    userRefs(search: string, page: PageRequest): Promise<LazyConnection<UserRefView>> {
      const filter = prefixFilter('usernameLower', search.toLowerCase());
      const query = { projection: DIRECTORY, collection: 'users', filter, keys: byUsername, queryKey: { userRefs: search } };
      return keysetPage(store, query, page, (docs) => docs.map((d) => ({ id: d.id as string, username: d.username as string })));
    },

    async organization(organizationId: string): Promise<OrganizationView | null> {
      const doc = await store.get(DIRECTORY, 'organizations', { id: organizationId });
      return doc === null ? null : organizationView(doc);
    },

    /** Organizations `userId` belongs to, by id; `onlyId` narrows to one organization (a key's scope). */
    organizationsOf(userId: string, onlyId: string | null, page: PageRequest): Promise<LazyConnection<OrganizationView>> {
      const filter = and(eq('userId', userId), onlyId === null ? { kind: 'all' } : eq('organizationId', onlyId));
      const query = {
        projection: DIRECTORY,
        collection: 'organization_members',
        filter,
        keys: [fieldKey('organizationId')],
        queryKey: { organizationsOf: userId, onlyId },
      };
      return keysetPage(store, query, page, async (docs) => {
        const ids = docs.map((d) => d.organizationId as string);
        const orgs = ids.length === 0 ? [] : await store.find(DIRECTORY, 'organizations', { filter: within('id', ids) });
        const byId = new Map(orgs.map((o) => [o.id as string, organizationView(o)]));
        return ids.map((id) => {
          const org = byId.get(id);
          // Organizations are never deleted and are projected before their members (same stream, same projection).
          invariant(org, `organization ${id} of a membership is projected`);
          return org;
        });
      });
    },

    organizationMembers(organizationId: string, page: PageRequest): Promise<LazyConnection<OrganizationMemberView>> {
      const query = {
        projection: DIRECTORY,
        collection: 'organization_members',
        filter: eq('organizationId', organizationId),
        keys: [fieldKey('username'), fieldKey('userId')],
        queryKey: { organizationMembers: organizationId },
      };
      return keysetPage(store, query, page, (docs) => docs.map((d) => ({ user: userRef(d), role: d.role as OrganizationRole })));
    },

    projectMembers(projectId: string, page: PageRequest): Promise<LazyConnection<ProjectMemberView>> {
      const query = {
        projection: DIRECTORY,
        collection: 'project_members',
        filter: eq('projectId', projectId),
        keys: [fieldKey('username'), fieldKey('userId')],
        queryKey: { projectMembers: projectId },
      };
      return keysetPage(store, query, page, (docs) => docs.map((d) => ({ user: userRef(d), role: d.role as ProjectRole })));
    },
  };
}

export type DirectoryReader = ReturnType<typeof createDirectoryReader>;
