import assert from 'node:assert/strict';
import { createSystemState, directoryStreamId, evolveSystemState, isAppError, organizationStreamId, sqlitePosition } from '../../contracts/index.ts';
import type { DomainEvent, ErrorCode, SystemState } from '../../contracts/index.ts';

/**
 * Test support (imported by *.unit.test.ts only): Emmett-style given(events).when(command).then(events) for
 * deciders over the system state. Events go to the stream they are written to in production.
 */

/** An event, optionally with its stream (default: the stream its type is written to). */
export type GivenEvent = DomainEvent | { readonly stream: string; readonly event: DomainEvent };

const directoryTypes = new Set([
  'UserCreated',
  'UserDeactivated',
  'UserReactivated',
  'UserRoleChanged',
  'UserPasswordChanged',
  'UserTokenVersionIncremented',
  'OrganizationCreated',
  'OrganizationMemberSet',
  'OrganizationMemberRemoved',
  'ProjectMemberSet',
  'ProjectMemberRemoved',
]);

function streamOf(state: SystemState, event: DomainEvent): string {
  if (directoryTypes.has(event.type)) return directoryStreamId;
  if (event.type === 'ProjectCreated') return organizationStreamId(event.data.organizationId);
  const projectId = (event.data as { projectId?: string }).projectId;
  const project = projectId === undefined ? undefined : state.projects.get(projectId);
  assert.ok(project, `given: cannot tell the stream of ${event.type}; pass { stream, event }`);
  return organizationStreamId(project.organizationId);
}

export const GIVEN_TIME = '2026-01-01T00:00:00.000Z';

/** Folds the given events (one time for all) into a fresh system state. */
export function givenState(events: readonly GivenEvent[]): SystemState {
  const state = createSystemState();
  const revisions = new Map<string, number>();
  events.forEach((given, index) => {
    const event = 'stream' in given ? given.event : given;
    const stream = 'stream' in given ? given.stream : streamOf(state, event);
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    evolveSystemState(state, {
      type: event.type,
      schemaVersion: 1,
      data: event.data,
      metadata: { eventId: `e${index}`, correlationId: 'c', causationId: null, principal: 'system', time: GIVEN_TIME },
      streamId: stream,
      revision,
      position: sqlitePosition(index + 1),
    });
  });
  return state;
}

export function deciderSpec<C>(decide: (command: C, state: SystemState) => DomainEvent[]) {
  return (given: readonly GivenEvent[]) => ({
    when: (command: C) => {
      const run = (): DomainEvent[] => decide(command, givenState(given));
      return {
        then(expected: readonly DomainEvent[]): void {
          assert.deepEqual(run(), expected);
        },
        thenThrows(code: ErrorCode, message?: RegExp): void {
          assert.throws(run, (err: unknown) => {
            assert.ok(isAppError(err), `expected AppError ${code}, got ${String(err)}`);
            assert.equal(err.code, code, err.message);
            if (message) assert.match(err.message, message);
            return true;
          });
        },
      };
    },
  });
}
