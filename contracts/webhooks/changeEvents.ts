import type { RecordedEvent } from '../events/envelope.ts';

/** Event types of the change feed and of webhooks (changes.md §6.3), besides `webhook.ping`. */
export const changeEventTypes = [
  'revision.committed',
  'draft.reverted',
  'rows.changed',
  'table.changed',
  'branch.merged',
  'branch.created',
  'branch.deleted',
] as const;
export type ChangeEventType = (typeof changeEventTypes)[number];

/** Every type a webhook may subscribe to. */
export const webhookEventTypeNames: readonly string[] = [...changeEventTypes, 'webhook.ping'];

/** The body of a delivery and the `data:` of a feed event: ids and names, never secrets. */
export type ChangeEventPayload = {
  readonly type: string;
  /** Log position of the event; null for `webhook.ping`. */
  readonly position: string | null;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
};

/** A change event with what filters need (organization, project, branch, tables touched). */
export type RoutedChangeEvent = {
  readonly payload: ChangeEventPayload & { readonly type: ChangeEventType; readonly position: string };
  readonly organizationId: string;
  readonly projectId: string;
  readonly projectName: string;
  readonly branchName: string;
  /** Whether the branch is its project's root (`$default` in branch filters and key scopes). */
  readonly branchIsRoot: boolean;
  /** Tables the event is about (key scopes leave out events of other tables); null = not about tables. */
  readonly tableIds: readonly string[] | null;
};

/**
 * Turns log events into change events (changes.md §6.3). Served by the query side (names from the system state, a
 * commit's `changes` from the views, waiting until those reach the events), used by the change feed and webhooks.
 */
export interface ChangeEventSource {
  /** Stream categories whose events may become change events (for `EventStore.readAll`). */
  readonly categories: readonly string[];
  /** The change events of `events`, in log order; rejects when the views cannot catch up in time (retry later). */
  describe(events: readonly RecordedEvent[]): Promise<RoutedChangeEvent[]>;
}
