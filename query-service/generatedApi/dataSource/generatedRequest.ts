import type { Position, Principal, SystemState } from '../../../contracts/index.ts';
import type { RowReadonly } from '../../readers/rowReader.ts';
import type { ServedEndpoint } from '../endpoint/servedEndpoint.ts';
import type { ServedTables } from './servedTables.ts';

/** What a successful write reports to the edge that asked for it. */
export type WriteOutcome = { readonly position: Position | null; readonly projections: readonly string[] };

/**
 * One request to a generated endpoint after the access checks of auth.md §10 steps 0-6: who asks, the endpoint and
 * revision served, and that revision's tables as read for this request (the data source's `TRequest`).
 */
export type GeneratedRequest = {
  readonly principal: Principal;
  readonly requestId: string;
  /** The system state the request was authorized against. */
  readonly state: SystemState;
  readonly served: ServedEndpoint;
  readonly tables: ServedTables;
  /** `readonly` rules of row versions by table id, computed at most once per request. */
  readonly readonlyRules: Map<string, Promise<RowReadonly>>;
  /** Runs after every successful write: the write-consistency wait and position reporting of the edge. */
  readonly afterWrite: (outcome: WriteOutcome) => Promise<void>;
};

export function createGeneratedRequest(fields: Omit<GeneratedRequest, 'readonlyRules'>): GeneratedRequest {
  // Named fields, not `{ ...fields, readonlyRules }`: see the spread-first rule in eslint.config.js.
  const { principal, requestId, state, served, tables, afterWrite } = fields;
  return { principal, requestId, state, served, tables, readonlyRules: new Map(), afterWrite };
}
