// Imports above 100,000 rows into a table with an `x-unique` field (portability.md §2, domain.md §5.5,
// versioned-storage.md §6) through HTTP, with the real thresholds (staged above 100,000 rows, chunks of 5,000): a
// value repeated between chunk 1 and chunk 40 is a UNIQUE_VIOLATION at the repeating line (onError=fail writes
// nothing; skip leaves that line out); a value held by a row `mode=replace` removes, or by a row the file moves to
// another value in a later chunk, is free; a write to the branch while the import stages wins and the import is
// refused. Every case leaves no staging behind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { Client, System } from './support/systemHarness.ts';
import { systemWithTables, uploadImport } from './support/systemFixtures.ts';
import { until } from '../support/strataProcess.ts';

/** 40 chunks of 5,000 after the first one: line 200,000 is in chunk 40 of the staged rows. */
const ROWS = 200_000;
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['sku', 'n'],
  properties: { sku: { type: 'string', default: '', 'x-unique': true }, n: { type: 'number', default: 0 } },
};
const id = (i: number): string => `r${String(i).padStart(6, '0')}`;
const sku = (i: number): string => `sku-${i}`;
const line = (i: number, value = sku(i)): string => JSON.stringify({ id: id(i), data: { sku: value, n: i } });
const file = (count: number, lineOf: (i: number) => string = (i) => line(i)): string => Array.from({ length: count }, (_, i) => lineOf(i)).join('\n');

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

describe('staged imports into a table with a unique field', () => {
  let system: System;
  let admin: Client;
  let token = '';
  let draft = '';

  before(async () => {
    ({ system, token, admin, draft } = await systemWithTables('uniq', ['fail', 'skip', 'moves', 'racing'], schema));
  });
  after(() => system.close());

  const upload = (table: string, body: string, query = '') => uploadImport(system.url, token, draft, table, body, query);
  const count = async (table: string): Promise<number> => ((await admin.rest('GET', `/revision/${draft}/table/${table}`)).body as Json).count;
  const message = `Another row ("${id(2)}") already has "/sku" = "${sku(2)}" in table "TABLE" (row "${id(ROWS - 1)}")`;
  // The last line (chunk 40) repeats line 3's value (chunk 1).
  const repeating = file(ROWS, (i) => (i === ROWS - 1 ? line(i, sku(2)) : line(i)));

  test('a value repeated 40 chunks later refuses the whole file with onError=fail', async () => {
    const head = await system.headPosition();
    const reply = await upload('fail', repeating);
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'IMPORT_INVALID');
    assert.equal(reply.body.message, `1 of ${ROWS} lines are invalid; nothing was imported`);
    assert.deepEqual(reply.body.details, [
      {
        path: `/line/${ROWS}`,
        message: `UNIQUE_VIOLATION: ${message.replace('TABLE', 'fail')} (/sku: Another row ("${id(2)}") already has "/sku" = "${sku(2)}")`,
      },
    ]);
    assert.equal(await system.headPosition(), head, 'nothing was appended');
    assert.equal(await count('fail'), 0);
    assert.deepEqual(await system.stagings(), []);
  });

  test('with onError=skip the repeating line is left out and reported at its line', async () => {
    const dry = await upload('skip', repeating, '?onError=skip&dryRun=true');
    assert.equal(dry.status, 200, JSON.stringify(dry.body));
    const reply = await upload('skip', repeating, '?onError=skip');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const error = {
      line: ROWS,
      rowId: id(ROWS - 1),
      code: 'UNIQUE_VIOLATION',
      message: message.replace('TABLE', 'skip'),
      details: [
        {
          path: '/sku',
          message: `Another row ("${id(2)}") already has "/sku" = "${sku(2)}"`,
          rowId: id(ROWS - 1),
          otherRowId: id(2),
          value: sku(2),
          index: ROWS - 1,
        },
      ],
    };
    const counts = { processed: ROWS, created: ROWS - 1, updated: 0, unchanged: 0, removed: 0, invalid: 1, errors: [error] };
    assert.deepEqual(reply.body, { ...counts, dryRun: false });
    assert.deepEqual(dry.body, { ...counts, dryRun: true }, 'the dry run answers the same');
    assert.equal(await count('skip'), ROWS - 1);
    assert.equal((await admin.rest('GET', `/revision/${draft}/table/skip/row/${id(ROWS - 1)}`)).status, 404);
    assert.deepEqual(await system.stagings(), []);
  });

  test('values of rows that replace removes, or that a later chunk moves, are free', async () => {
    // The table holds r000000..r000009 with sku-0..sku-9.
    const seeded = await upload('moves', file(10));
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
    // Line 1 takes sku-5 from r000005, which the last line (chunk 40) moves to sku-x; r000007 is not in the file
    // (replace removes it), so line 2 may take sku-7. The other rows are new.
    const moved = file(ROWS, (i) => {
      if (i === 0) return JSON.stringify({ id: 'new-a', data: { sku: sku(5), n: 0 } });
      if (i === 1) return JSON.stringify({ id: 'new-b', data: { sku: sku(7), n: 0 } });
      if (i === ROWS - 1) return line(5, 'sku-x');
      return line(i + 10);
    });
    const reply = await upload('moves', moved, '?mode=replace');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(
      [reply.body.created, reply.body.updated, reply.body.removed, reply.body.invalid],
      [ROWS - 1, 1, 9, 0],
      JSON.stringify(reply.body.errors),
    );
    const row = async (rowId: string): Promise<Json> => ((await admin.rest('GET', `/revision/${draft}/table/moves/row/${rowId}`)).body as Json).data;
    assert.equal((await row('new-a')).sku, sku(5));
    assert.equal((await row('new-b')).sku, sku(7));
    assert.equal((await row(id(5))).sku, 'sku-x');
    assert.equal(await count('moves'), ROWS);
  });

  test('a write to the branch while the import stages wins; the import is refused and leaves nothing', async () => {
    const req = request(`${system.url}/api/revision/${draft}/table/racing/import`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
    });
    const answer = new Promise<{ status: number; body: Json }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
    });
    for (let i = 0; i < 110_000; i += 1) if (!req.write(`${line(i)}\n`)) await new Promise((resolve) => req.once('drain', resolve));
    await until('the import to stage a chunk', 60_000, async () => ((await system.stagings()).some((s) => s.events > 0) ? true : undefined));
    // Another writer takes a value the rest of the file uses.
    const taken = await admin.rest('POST', `/revision/${draft}/table/racing/rows`, { rowId: 'other', data: { sku: sku(115_000), n: 0 } });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    // The import is refused at its next chunk, which may answer before the rest of the body is sent.
    let answered = false;
    void answer.then(() => (answered = true));
    for (let i = 110_000; i < 120_000 && !answered; i += 1) {
      if (!req.write(`${line(i)}\n`)) await Promise.race([new Promise((resolve) => req.once('drain', resolve)), answer]);
    }
    req.end();
    const reply = await answer;
    assert.equal(reply.status, 409, JSON.stringify(reply.body));
    assert.equal(reply.body.code, 'CONCURRENT_MODIFICATION');
    assert.equal(await count('racing'), 1, 'only the other write is in the draft');
    await until('the staging to be discarded', 30_000, async () => ((await system.stagings()).length === 0 ? true : undefined));
  });
});
