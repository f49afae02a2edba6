/**
 * Positions are opaque, lexicographically ordered strings (spec operations §4.1):
 * `s:` + 20 digits for SQLite, `k:` + 20 digits + `:` + 20 digits for KurrentDB.
 */
export type Position = string;

const SQLITE_POSITION = /^s:\d{20}$/;
const KURRENT_POSITION = /^k:\d{20}:\d{20}$/;

export type PositionBackend = 'sqlite' | 'kurrent';

export function sqlitePosition(globalPosition: number | bigint): Position {
  return `s:${globalPosition.toString().padStart(20, '0')}`;
}

export function kurrentPosition(commit: bigint, prepare: bigint): Position {
  return `k:${commit.toString().padStart(20, '0')}:${prepare.toString().padStart(20, '0')}`;
}

export function positionBackend(position: string): PositionBackend | null {
  if (SQLITE_POSITION.test(position)) return 'sqlite';
  if (KURRENT_POSITION.test(position)) return 'kurrent';
  return null;
}

export function isPosition(value: string): boolean {
  return positionBackend(value) !== null;
}

/** Global position number of a SQLite position. */
export function sqliteGlobalPosition(position: Position): number {
  return Number(position.slice(2));
}

/** Negative when a is before b. Positions of one backend only; `null` sorts before everything. */
export function comparePositions(a: Position | null, b: Position | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

export function maxPosition(a: Position | null, b: Position | null): Position | null {
  return comparePositions(a, b) >= 0 ? a : b;
}
