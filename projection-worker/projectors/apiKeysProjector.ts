import { apiKeyCreatedFields, apiKeyViews, fieldsEqual } from '../../contracts/index.ts';
import type { AuthEvent, RecordedEvent, ViewChange } from '../../contracts/index.ts';
import type { Projector } from '../runner/projector.ts';

/**
 * API-key records (projection `api-keys`, category `apikey`: one stream per key owner). The secret hash is never
 * copied; `lastUsedAt` is ephemeral state (operations.md §3) and not part of the view.
 */
export const apiKeysProjector: Projector = {
  spec: apiKeyViews,
  categories: ['apikey'],
  apply(events: readonly RecordedEvent[]): ViewChange[] {
    const changes: ViewChange[] = [];
    for (const recorded of events) applyApiKeyEvent(recorded, changes);
    return changes;
  },
};

function applyApiKeyEvent(recorded: RecordedEvent, changes: ViewChange[]): void {
  const event = { type: recorded.type, data: recorded.data } as AuthEvent;
  const time = recorded.metadata.time;
  switch (event.type) {
    case 'ApiKeyCreated': {
      const d = event.data;
      changes.push({
        op: 'upsert',
        collection: 'keys',
        doc: {
          ...apiKeyCreatedFields(d, time),
          revoked: false,
          revokedAt: null,
          revokedBy: null,
          replacedById: null,
        },
      });
      return;
    }
    case 'ApiKeyRevoked':
      // Only the first revocation counts, as in the system state.
      changes.push({
        op: 'update',
        collection: 'keys',
        filter: fieldsEqual({ id: event.data.keyId, revoked: false }),
        set: { revoked: true, revokedAt: time, revokedBy: event.data.revokedBy, replacedById: event.data.replacedById },
      });
      return;
    default:
      return;
  }
}
