// Invariants on the log itself: each acknowledged row creation appears once, refused rows never, and no refresh
// token is rotated twice (a fork of its family).
import type { EventStore, Position, RecordedEvent } from '../../contracts/index.ts';
import type { BranchModel } from './branchModel.ts';
import type { Recorder } from './recorder.ts';

export async function readWholeLog(log: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let after: Position | null = null;
  for (;;) {
    const page = await log.readAll(after, { maxCount: 10_000 });
    const last = page.at(-1);
    if (last === undefined) return events;
    events.push(...page);
    after = last.position;
  }
}

type RowWriteData = { rows?: readonly { rowId: string }[] };

export function checkLog(events: readonly RecordedEvent[], models: readonly BranchModel[], refused: ReadonlySet<string>, recorder: Recorder): void {
  const created = new Map<string, number>();
  const rotated = new Map<string, number>();
  for (const event of events) {
    if (event.type === 'RowsCreated') {
      for (const row of (event.data as RowWriteData).rows ?? []) created.set(row.rowId, (created.get(row.rowId) ?? 0) + 1);
    } else if (event.type === 'RefreshTokenRotated') {
      const tokenId = (event.data as { tokenId: string }).tokenId;
      rotated.set(tokenId, (rotated.get(tokenId) ?? 0) + 1);
    }
  }
  recorder.count('log:events', events.length);
  for (const [rowId, count] of created) {
    if (count > 1) recorder.violation('acknowledged-writes-in-log-once', `row ${rowId} created ${count} times in the log`);
    if (refused.has(rowId)) recorder.violation('refused-writes-never-appear', `refused row ${rowId} is in the log`);
  }
  const expected = new Set<string>();
  for (const model of models) for (const rows of [model.draft, model.head]) for (const [id, row] of rows) if (!row.maybe) expected.add(id);
  for (const id of expected) if (!created.has(id)) recorder.violation('acknowledged-writes-in-log-once', `acknowledged row ${id} is not in the log`);
  recorder.count('checks:rows-in-log', expected.size);
  for (const [tokenId, count] of rotated)
    if (count > 1) recorder.violation('no-refresh-family-forks', `refresh token ${tokenId.slice(0, 4)}… rotated ${count} times`);
  recorder.count('checks:refresh-rotations-in-log', rotated.size);
}
