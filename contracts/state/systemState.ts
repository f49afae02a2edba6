import type { RecordedEvent } from '../events/envelope.ts';
import type { DomainEvent } from '../events/domainEvents.ts';
import { streamCategory } from '../events/streamIds.ts';
import type { Position } from '../events/position.ts';
import { createAuthState, evolveAuthState } from './authState.ts';
import type { AuthState } from './authState.ts';
import { createWebhookState, evolveWebhookState } from './webhookState.ts';
import type { WebhookState } from './webhookState.ts';
import type { BranchRecord, EndpointRecord, OrganizationRecord, ProjectRecord, RevisionRecord, UserRecord } from './systemRecords.ts';

/**
 * In-memory state of users, organizations, memberships, projects, branches, revisions and endpoints, folded from
 * the log (categories `directory`, `organization` and the revision lifecycle events of `branch`), plus API keys and
 * refresh families (categories `apikey` and `session`, see authState.ts) and webhooks (category `webhook`). Both sides use it:
 * the write side decides against it, the read side authorizes with it (auth state is exempt from projection lag,
 * operations.md §4.4). It is mutated in place: it can hold every entity of a deployment and is rebuilt from the log.
 */
export type SystemState = AuthState &
  WebhookState & {
    position: Position | null;
    /** Last revision folded per stream (the expected revision for the next append). */
    streamRevisions: Map<string, number>;
    users: Map<string, UserRecord>;
    /** Lower-cased username or organization id -> owner ('user' or 'organization') for the shared namespace. */
    namespace: Map<string, { kind: 'user' | 'organization'; id: string }>;
    organizations: Map<string, OrganizationRecord>;
    projects: Map<string, ProjectRecord>;
    branches: Map<string, BranchRecord>;
    revisions: Map<string, RevisionRecord>;
    endpoints: Map<string, EndpointRecord>;
  };

/** Categories and event types the system state folds (pass to EventStore.readAll). */
export const systemStateFilter = {
  categories: ['directory', 'organization', 'apikey', 'session', 'webhook', 'oauth'],
  eventTypes: ['RevisionCommitted', 'MergeRecorded', 'DraftReverted'],
} as const;

export function createSystemState(): SystemState {
  return {
    position: null,
    streamRevisions: new Map(),
    users: new Map(),
    namespace: new Map(),
    organizations: new Map(),
    projects: new Map(),
    branches: new Map(),
    revisions: new Map(),
    endpoints: new Map(),
    ...createAuthState(),
    ...createWebhookState(),
  };
}

function addRevision(state: SystemState, branch: BranchRecord, id: string, seq: number, createdAt: string, committed: boolean): void {
  branch.revisionIds[seq] = id;
  state.revisions.set(id, {
    id,
    branchId: branch.id,
    projectId: branch.projectId,
    organizationId: branch.organizationId,
    seq,
    createdAt,
    mergedRevisionIds: [],
    committedAt: committed ? createdAt : null,
  });
}

function addBranch(
  state: SystemState,
  organizationId: string,
  projectId: string,
  data: { branchId: string; name: string; startRevisionId: string; draftRevisionId: string },
  isRoot: boolean,
  parent: BranchRecord['parent'],
  time: string,
): void {
  const branch: BranchRecord = {
    id: data.branchId,
    projectId,
    organizationId,
    name: data.name,
    isRoot,
    createdAt: time,
    deleted: false,
    startRevisionId: data.startRevisionId,
    headRevisionId: data.startRevisionId,
    draftRevisionId: data.draftRevisionId,
    headSeq: 0,
    revisionIds: [],
    parent,
  };
  state.branches.set(branch.id, branch);
  addRevision(state, branch, data.startRevisionId, 0, time, true);
  addRevision(state, branch, data.draftRevisionId, 1, time, false);
  state.projects.get(projectId)?.branchIds.add(branch.id);
}

/** Folds one recorded event into the state (unknown events are ignored). */
export function evolveSystemState(state: SystemState, recorded: RecordedEvent): SystemState {
  state.position = recorded.position;
  state.streamRevisions.set(recorded.streamId, recorded.revision);
  const time = recorded.metadata.time;
  const category = streamCategory(recorded.streamId);
  if (category === 'apikey' || category === 'session' || category === 'oauth') {
    evolveAuthState(state, state.streamRevisions, recorded);
    return state;
  }
  if (category === 'webhook') {
    evolveWebhookState(state, recorded);
    return state;
  }
  if (category !== 'directory' && category !== 'organization' && category !== 'branch') return state;
  const event = { type: recorded.type, data: recorded.data } as DomainEvent;
  switch (event.type) {
    case 'UserCreated': {
      const d = event.data;
      state.users.set(d.userId, {
        id: d.userId,
        username: d.username,
        email: d.email,
        role: d.role,
        isActive: true,
        passwordHash: d.passwordHash,
        tokenVersion: 0,
        createdAt: time,
      });
      state.namespace.set(d.username.toLowerCase(), { kind: 'user', id: d.userId });
      break;
    }
    case 'UserDeactivated': {
      const user = state.users.get(event.data.userId);
      if (user) {
        user.isActive = false;
        user.tokenVersion += 1;
      }
      break;
    }
    case 'UserReactivated': {
      const user = state.users.get(event.data.userId);
      if (user) user.isActive = true;
      break;
    }
    case 'UserRoleChanged': {
      const user = state.users.get(event.data.userId);
      if (user) user.role = event.data.role;
      break;
    }
    case 'UserPasswordChanged': {
      const user = state.users.get(event.data.userId);
      if (user) {
        user.passwordHash = event.data.passwordHash;
        user.tokenVersion += 1;
      }
      break;
    }
    case 'UserTokenVersionIncremented': {
      const user = state.users.get(event.data.userId);
      if (user) user.tokenVersion += 1;
      break;
    }
    case 'OrganizationCreated': {
      const d = event.data;
      state.organizations.set(d.organizationId, {
        id: d.organizationId,
        isPersonal: d.isPersonal,
        createdAt: time,
        members: new Map(),
      });
      if (!d.isPersonal) state.namespace.set(d.organizationId.toLowerCase(), { kind: 'organization', id: d.organizationId });
      break;
    }
    case 'OrganizationMemberSet':
      state.organizations.get(event.data.organizationId)?.members.set(event.data.userId, event.data.role);
      break;
    case 'OrganizationMemberRemoved': {
      const { organizationId, userId } = event.data;
      state.organizations.get(organizationId)?.members.delete(userId);
      for (const project of state.projects.values()) {
        if (project.organizationId === organizationId) project.members.delete(userId);
      }
      break;
    }
    case 'ProjectMemberSet':
      state.projects.get(event.data.projectId)?.members.set(event.data.userId, event.data.role);
      break;
    case 'ProjectMemberRemoved':
      state.projects.get(event.data.projectId)?.members.delete(event.data.userId);
      break;
    case 'ProjectCreated': {
      const d = event.data;
      state.projects.set(d.projectId, {
        id: d.projectId,
        organizationId: d.organizationId,
        name: d.name,
        isPublic: d.isPublic,
        createdAt: time,
        deleted: false,
        rootBranchId: d.rootBranch.branchId,
        members: new Map(),
        branchIds: new Set(),
      });
      addBranch(state, d.organizationId, d.projectId, d.rootBranch, true, null, time);
      break;
    }
    case 'ProjectVisibilityChanged': {
      const project = state.projects.get(event.data.projectId);
      if (project) project.isPublic = event.data.isPublic;
      break;
    }
    case 'ProjectDeleted': {
      const project = state.projects.get(event.data.projectId);
      if (!project) break;
      project.deleted = true;
      for (const branchId of project.branchIds) {
        const branch = state.branches.get(branchId);
        if (branch) branch.deleted = true;
      }
      for (const endpoint of state.endpoints.values()) {
        if (endpoint.projectId === project.id) endpoint.deleted = true;
      }
      break;
    }
    case 'BranchCreated': {
      const d = event.data;
      const project = state.projects.get(d.projectId);
      if (!project) break;
      addBranch(
        state,
        project.organizationId,
        d.projectId,
        d,
        false,
        {
          branchId: d.sourceBranchId,
          revisionId: d.sourceRevisionId,
        },
        time,
      );
      break;
    }
    case 'BranchDeleted': {
      const branch = state.branches.get(event.data.branchId);
      if (!branch) break;
      branch.deleted = true;
      state.projects.get(branch.projectId)?.branchIds.delete(branch.id);
      for (const endpoint of state.endpoints.values()) {
        if (endpoint.branchId === branch.id) endpoint.deleted = true;
      }
      break;
    }
    case 'EndpointCreated': {
      const d = event.data;
      const project = state.projects.get(d.projectId);
      if (!project) break;
      state.endpoints.set(d.endpointId, {
        id: d.endpointId,
        organizationId: project.organizationId,
        projectId: d.projectId,
        branchId: d.branchId,
        type: d.type,
        mode: d.mode,
        pinnedRevisionId: d.pinnedRevisionId,
        createdAt: time,
        deleted: false,
      });
      break;
    }
    case 'EndpointDeleted': {
      const endpoint = state.endpoints.get(event.data.endpointId);
      if (endpoint) endpoint.deleted = true;
      break;
    }
    case 'RevisionCommitted': {
      const branch = state.branches.get(recorded.streamId.slice('branch-'.length));
      if (!branch) break;
      const d = event.data;
      branch.headRevisionId = d.revisionId;
      branch.headSeq = d.seq;
      branch.draftRevisionId = d.newDraftRevisionId;
      const committed = state.revisions.get(d.revisionId);
      if (committed) {
        committed.committedAt = time;
        committed.commitStreamRevision = recorded.revision;
      }
      addRevision(state, branch, d.newDraftRevisionId, d.newDraftSeq, time, false);
      break;
    }
    case 'MergeRecorded': {
      // The draft's pending merges (merge.md §5); the commit keeps them as the revision's mergedRevisionIds.
      const draft = state.revisions.get(event.data.draftRevisionId);
      if (draft && !draft.mergedRevisionIds.includes(event.data.sourceRevisionId)) draft.mergedRevisionIds.push(event.data.sourceRevisionId);
      break;
    }
    case 'DraftReverted': {
      const draft = state.revisions.get(event.data.draftRevisionId);
      if (draft) draft.mergedRevisionIds = [];
      break;
    }
    default:
      break;
  }
  return state;
}
