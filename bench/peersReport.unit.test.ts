import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cpuDeltaSeconds,
  formatCell,
  median,
  parseProcStat,
  ratioToBestPeer,
  renderTable,
  replaceSection,
  summarize,
  toRound,
  type Round,
} from './peersReport.ts';

const round = (rps: number, serverUs = 100, pgUs = 0, errors = 0): Round => ({ rps, p50: 10, p99: 20, serverUs, pgUs, errors });

describe('parseProcStat', () => {
  test('reads the name, the parent and utime + stime, also when the name holds spaces and parentheses', () => {
    const fields = ['S', '1', '2', '3', '0', '-1', '4194560', '10', '0', '0', '0', '1234', '56', '0', '0', '20', '0', '1'];
    assert.deepEqual(parseProcStat(`4242 (postgres) ${fields.join(' ')}`), { comm: 'postgres', ppid: 1, ticks: 1290 });
    assert.deepEqual(parseProcStat(`7 (a b) c)) ${fields.join(' ')}`), { comm: 'a b) c)', ppid: 1, ticks: 1290 });
  });
  test('refuses text that is not a stat line', () => {
    assert.throws(() => parseProcStat('nothing here'), /not a \/proc/);
  });
});

describe('cpuDeltaSeconds', () => {
  test('sums per-process deltas; a new process counts from zero, an ended one drops out instead of going negative', () => {
    const before = new Map([
      [1, 1000],
      [2, 500],
      [3, 900],
    ]);
    const after = new Map([
      [1, 1150],
      [2, 530],
      [4, 20],
    ]); // 3 ended, 4 started
    assert.equal(cpuDeltaSeconds(before, after), 2);
    assert.equal(cpuDeltaSeconds(new Map(), new Map()), 0);
  });
});

describe('median and summaries', () => {
  test('median of odd and even counts, NaN ignored, NaN for none', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([Number.NaN, 5]), 5);
    assert.ok(Number.isNaN(median([])));
  });
  test('toRound turns CPU seconds into µs per request', () => {
    const r = toRound({ requests: 20_000, seconds: 10, p50: 4, p99: 9, errors: 3 }, 2, 0.5);
    assert.deepEqual(r, { rps: 2000, p50: 4, p99: 9, serverUs: 100, pgUs: 25, errors: 3 });
    assert.ok(Number.isNaN(toRound({ requests: 0, seconds: 10, p50: 0, p99: 0, errors: 0 }, 1, 0).serverUs));
  });
  test('summarize takes the median of each field on its own and sums the unanswered requests', () => {
    const s = summarize([round(100, 50, 0, 2), round(300, 10), round(200, 30, 0, 5)]);
    assert.equal(s.rps, 200);
    assert.equal(s.serverUs, 30);
    assert.equal(s.errors, 7);
  });
});

describe('ratioToBestPeer', () => {
  test('compares each round with the fastest peer of that round and takes the median', () => {
    const strata = [round(1000), round(900), round(1200)];
    const peers = new Map([
      ['A', [round(500), round(600), round(400)]],
      ['B', [round(400), round(300), round(600)]],
    ]);
    // Rounds: 1000/500 = 2, 900/600 = 1.5, 1200/600 = 2 → median 2; A was fastest twice.
    assert.deepEqual(ratioToBestPeer(strata, peers), { ratio: 2, best: 'A' });
  });
  test('no peer: no ratio', () => {
    const out = ratioToBestPeer([round(1)], new Map());
    assert.equal(out.best, null);
    assert.ok(Number.isNaN(out.ratio));
  });
});

describe('rendering', () => {
  test('a cell shows server + PostgreSQL CPU only for systems that use PostgreSQL', () => {
    const r: Round = { rps: 2826.4, p50: 17.04, p99: 40, serverUs: 204.2, pgUs: 90, errors: 0 };
    assert.equal(formatCell(r, true), '2,826/s · p50 17.0 ms · p99 40.0 ms · CPU 204 + 90.0 µs');
    assert.equal(formatCell(r, false), '2,826/s · p50 17.0 ms · p99 40.0 ms · CPU 204 µs');
    assert.equal(formatCell({ ...r, errors: 1200 }, false), '2,826/s · p50 17.0 ms · p99 40.0 ms · CPU 204 µs · 1,200 unanswered (timeout 10 s)');
  });
  test('the table has a dash where a system lacks the API and the ratio against the best peer', () => {
    const systems = [
      { key: 's', label: 'Strata', usesPostgres: false },
      { key: 'g', label: 'PostGraphile', usesPostgres: true },
      { key: 'p', label: 'Platformatic', usesPostgres: true },
    ];
    const results = new Map([
      [
        'rest',
        new Map([
          ['s', [round(3000)]],
          ['p', [round(1000)]],
        ]),
      ],
      [
        'gql',
        new Map([
          ['s', [round(1000)]],
          ['g', [round(2000)]],
          ['p', [round(500)]],
        ]),
      ],
    ]);
    const lines = renderTable(
      [
        { key: 'rest', label: 'REST get' },
        { key: 'gql', label: 'GraphQL get' },
        { key: 'none', label: 'skipped' },
      ],
      systems,
      results,
    );
    assert.equal(lines.length, 4);
    assert.match(lines[0] as string, /^\| scenario \| Strata \| PostGraphile \| Platformatic \| Strata ÷ best peer/);
    assert.match(lines[2] as string, /^\| REST get \| 3,000\/s .* \| — \| 1,000\/s .* \| \*\*3\.0\*\* \(vs Platformatic\) \|$/);
    assert.match(lines[3] as string, /\| \*\*0\.50\*\* \(vs PostGraphile\) \|$/);
  });
});

describe('replaceSection', () => {
  const file = '# Results\n\nintro\n\n## A\n\nold a\n\n## B\n\nold b\n';
  test('replaces the named section and keeps the others', () => {
    assert.equal(replaceSection(file, '## A', ['## A', '', 'new a']), '# Results\n\nintro\n\n## A\n\nnew a\n\n## B\n\nold b\n');
    assert.equal(replaceSection(file, '## B', ['## B', '', 'new b']), '# Results\n\nintro\n\n## A\n\nold a\n\n## B\n\nnew b\n');
  });
  test('appends a section that is not there yet', () => {
    assert.equal(replaceSection(file, '## C', ['## C', '', 'c']), `${file}\n## C\n\nc\n`);
    assert.equal(replaceSection('', '## C', ['## C']), '## C\n');
  });
});
