/** Source of time for the whole system; tests pass a controllable clock. */
export interface Clock {
  /** Current time in milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** RFC 3339 UTC with milliseconds, the wire format of every timestamp. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
