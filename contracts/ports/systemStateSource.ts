import type { SystemState } from '../state/systemState.ts';

/** In-memory system state kept current from the log (see contracts/state/systemState.ts). */
export interface SystemStateSource {
  /** The state folded up to at least the log head as of this call (reads the few new events, if any). Do not mutate. */
  current(): Promise<SystemState>;
}
