import { directoryViews, fieldsEqual } from '../../contracts/index.ts';
import type { RecordedEvent, ViewChange } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';
import { domainEventOf } from './projectorSupport.ts';

/** Users, organizations and memberships (projection `directory`, stream `directory`). */
export const directoryProjector: Projector = {
  spec: directoryViews,
  categories: ['directory'],
  apply(events: readonly RecordedEvent[]): ViewChange[] {
    const changes: ViewChange[] = [];
    for (const recorded of events) applyDirectoryEvent(recorded, changes);
    return changes;
  },
};

function applyDirectoryEvent(recorded: RecordedEvent, changes: ViewChange[]): void {
  const time = recorded.metadata.time;
  const event = domainEventOf(recorded);
  switch (event.type) {
    case 'UserCreated': {
      const d = event.data;
      changes.push({
        op: 'upsert',
        collection: 'users',
        doc: {
          id: d.userId,
          username: d.username,
          usernameLower: d.username.toLowerCase(),
          email: d.email,
          role: d.role,
          isActive: true,
          // The personal organization has the username as its id.
          organizationId: d.username,
          createdAt: time,
        },
      });
      return;
    }
    case 'UserDeactivated':
    case 'UserReactivated':
      changes.push({
        op: 'update',
        collection: 'users',
        filter: fieldsEqual({ id: event.data.userId }),
        set: { isActive: event.type === 'UserReactivated' },
      });
      return;
    case 'UserRoleChanged':
      changes.push({ op: 'update', collection: 'users', filter: fieldsEqual({ id: event.data.userId }), set: { role: event.data.role } });
      return;
    case 'OrganizationCreated':
      changes.push({
        op: 'upsert',
        collection: 'organizations',
        doc: { id: event.data.organizationId, isPersonal: event.data.isPersonal, createdAt: time },
      });
      return;
    case 'OrganizationMemberSet': {
      const { organizationId, userId, username, role } = event.data;
      changes.push({ op: 'upsert', collection: 'organization_members', doc: { organizationId, userId, username, role } });
      return;
    }
    case 'OrganizationMemberRemoved': {
      const filter = fieldsEqual({ organizationId: event.data.organizationId, userId: event.data.userId });
      changes.push({ op: 'delete', collection: 'organization_members', filter });
      // Leaving an organization also ends every project role in it.
      changes.push({ op: 'delete', collection: 'project_members', filter });
      return;
    }
    case 'ProjectMemberSet': {
      const { organizationId, projectId, userId, username, role } = event.data;
      changes.push({ op: 'upsert', collection: 'project_members', doc: { projectId, organizationId, userId, username, role } });
      return;
    }
    case 'ProjectMemberRemoved':
      changes.push({
        op: 'delete',
        collection: 'project_members',
        filter: fieldsEqual({ projectId: event.data.projectId, userId: event.data.userId }),
      });
      return;
    default:
      // Password and token-version changes are not part of any view.
      return;
  }
}
