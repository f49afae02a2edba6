import { invariant } from '../../contracts/index.ts';
import type { BranchView, EndpointView, Filter, ProjectView, RevisionView, ViewStore } from '../../contracts/index.ts';
import { and, eq } from '../paging/filters.ts';
import { fieldKey, keysetPage } from '../paging/keysetPage.ts';
import type { PageRequest } from '../paging/pageArgs.ts';
import type { LazyConnection } from '../paging/lazyConnection.ts';
import { branchView, endpointView, projectView, revisionView, type BranchHeads } from './catalogViews.ts';

const CATALOG = 'catalog';
const live = eq('deleted', false);

/** Resolves the current HEAD/draft ids of a branch (SystemState), or null for an unknown branch. */
export type HeadsOf = (branchId: string) => BranchHeads | null;

/** Reads of the `catalog` projection; deleted projects, branches and endpoints are never returned. */
export function createCatalogReader(store: ViewStore) {
  async function liveDoc(collection: string, id: string) {
    const doc = await store.get(CATALOG, collection, { id });
    return doc === null || doc.deleted === true ? null : doc;
  }

  function endpointViews(docs: readonly Readonly<Record<string, unknown>>[], headsOf: HeadsOf): EndpointView[] {
    return docs.map((doc) => {
      const heads = headsOf(doc.branchId as string);
      // The system state is folded to the log head, so it knows every branch the views know.
      invariant(heads, `branch ${String(doc.branchId)} of an endpoint is in the system state`);
      return endpointView(doc, heads);
    });
  }

  return {
    async project(projectId: string): Promise<ProjectView | null> {
      const doc = await liveDoc('projects', projectId);
      return doc === null ? null : projectView(doc);
    },

    /** Projects of an organization by name; `scope` narrows them (readable, in key scope). */
    projects(organizationId: string, scope: Filter, page: PageRequest): Promise<LazyConnection<ProjectView>> {
      const query = {
        projection: CATALOG,
        collection: 'projects',
        filter: and(eq('organizationId', organizationId), live, scope),
        keys: [fieldKey('name'), fieldKey('id')],
        queryKey: { projects: organizationId },
      };
      return keysetPage(store, query, page, (docs) => docs.map(projectView));
    },

    async branch(branchId: string): Promise<BranchView | null> {
      const doc = await liveDoc('branches', branchId);
      return doc === null ? null : branchView(doc);
    },

    /** Branches of a project: root first, then by name; `scope` narrows them (key branch scope). */
    branches(projectId: string, scope: Filter, page: PageRequest): Promise<LazyConnection<BranchView>> {
      const query = {
        projection: CATALOG,
        collection: 'branches',
        filter: and(eq('projectId', projectId), live, scope),
        keys: [fieldKey('isRoot', 'desc', 'boolean'), fieldKey('name'), fieldKey('id')],
        queryKey: { branches: projectId },
      };
      return keysetPage(store, query, page, (docs) => docs.map(branchView));
    },

    async revision(revisionId: string, heads: BranchHeads): Promise<RevisionView | null> {
      const doc = await store.get(CATALOG, 'revisions', { id: revisionId });
      return doc === null ? null : revisionView(doc, heads);
    },

    /** Revisions of a branch, newest first. */
    revisions(branchId: string, heads: BranchHeads, page: PageRequest): Promise<LazyConnection<RevisionView>> {
      const query = {
        projection: CATALOG,
        collection: 'revisions',
        filter: eq('branchId', branchId),
        keys: [fieldKey('sequence', 'desc', 'number'), fieldKey('id')],
        queryKey: { revisions: branchId },
      };
      return keysetPage(store, query, page, (docs) => docs.map((doc) => revisionView(doc, heads)));
    },

    async endpoint(endpointId: string, headsOf: HeadsOf): Promise<EndpointView | null> {
      const doc = await liveDoc('endpoints', endpointId);
      return doc === null ? null : (endpointViews([doc], headsOf)[0] ?? null);
    },

    /** Endpoints of a project by createdAt; `scope` narrows them (branch, type, key branch scope). */
    endpoints(projectId: string, scope: Filter, headsOf: HeadsOf, page: PageRequest): Promise<LazyConnection<EndpointView>> {
      const query = {
        projection: CATALOG,
        collection: 'endpoints',
        filter: and(eq('projectId', projectId), live, scope),
        keys: [fieldKey('createdAt'), fieldKey('id')],
        queryKey: { endpoints: projectId, scope },
      };
      return keysetPage(store, query, page, (docs) => endpointViews(docs, headsOf));
    },

    /** Every live endpoint of a branch, by createdAt. */
    async endpointsOfBranch(branchId: string, headsOf: HeadsOf): Promise<EndpointView[]> {
      const docs = await store.find(CATALOG, 'endpoints', {
        filter: and(eq('branchId', branchId), live),
        orderBy: [
          { ref: { field: 'createdAt' }, direction: 'asc' },
          { ref: { field: 'id' }, direction: 'asc' },
        ],
      });
      return endpointViews(docs, headsOf);
    },
  };
}

export type CatalogReader = ReturnType<typeof createCatalogReader>;
