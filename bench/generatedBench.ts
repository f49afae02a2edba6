// Generated-endpoint reads against the ceiling (issue "Generated GraphQL and REST endpoints"): a 100,000-row table
// served by the real server (`strata serve`, child process, pinned to core 0 when `taskset` exists), and in the same
// run a bare node:http server returning the same pre-serialized bytes per scenario. autocannon (this process,
// pinned to core 1) at 50 connections. Figures: req/s, % of bare, requests per server CPU-second (from
// /proc/<pid>/stat), page-1 vs page-50 latency of a cursor walk.
// Run alone: npx tsx bench/generatedBench.ts [rows] [seconds]
import { spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CONNECTIONS,
  freePort,
  hasTaskset,
  load,
  pinned,
  start,
  startServer,
  waitFor,
  type BenchFigure,
  type BenchServer,
  type Load,
  type Req,
} from './benchServers.ts';
import { seed, type Scenario } from './generatedBenchSeed.ts';

/** The bare ceiling: answers `/s<i>` with the i-th captured body and the real Content-Type, nothing else. */
const BARE_SERVER = `
const http = require('node:http');
const bodies = JSON.parse(process.env.BODIES).map((b) => Buffer.from(b, 'base64'));
http.createServer((req, res) => {
  const body = bodies[Number(req.url.slice(2))];
  const send = () => { res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length }); res.end(body); };
  if (req.method === 'GET') send(); else { req.resume(); req.on('end', send); }
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Rounds of alternating bare / strata loads per scenario (each `seconds / ROUNDS` long). */
const ROUNDS = 5;

/**
 * Loads the bare server and strata in alternating rounds: this VM's speed drifts by tens of percent within a minute
 * (other tenants), so each round's ratio compares two loads a few seconds apart; the figure is the median round.
 */
async function alternate(
  bare: { base: string; req: Req; pid: number },
  real: { base: string; req: Req; pid: number },
  seconds: number,
): Promise<{ bare: Load; real: Load; ratio: number }> {
  const bareRuns: Load[] = [];
  const realRuns: Load[] = [];
  const ratios: number[] = [];
  const each = Math.max(1, Math.round(seconds / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    const b = await load(bare.base, bare.req, bare.pid, each);
    const r = await load(real.base, real.req, real.pid, each);
    bareRuns.push(b);
    realRuns.push(r);
    ratios.push(r.rps / b.rps);
  }
  const total = (runs: Load[]): Load => {
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    const p50s = runs.map((run) => run.p50).sort((x, y) => x - y);
    return {
      rps: requests / (each * runs.length),
      requests,
      p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
      cpuS: runs.reduce((sum, run) => sum + run.cpuS, 0),
    };
  };
  const sorted = [...ratios].sort((x, y) => x - y);
  return { bare: total(bareRuns), real: total(realRuns), ratio: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN };
}

/** STRATA_BENCH_SCENARIOS=restGet,gqlList: only those (e.g. to profile one). */
function chosen<T extends { key: string }>(list: T[]): T[] {
  const only = process.env.STRATA_BENCH_SCENARIOS?.split(',');
  return only === undefined ? list : list.filter((s) => only.includes(s.key));
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
const usPerRequest = (run: Load): number => (run.cpuS / run.requests) * 1e6;

export async function runGeneratedBench(rows = 100_000, seconds = 10): Promise<BenchFigure[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]);
  const strata = await startServer(root);
  let bare: ChildProcess | undefined;
  try {
    const { seedS, scenarios: all, random, draftGql, draftCursors } = await seed(strata.call, rows);
    const scenarios = chosen(all);
    const bodies: Buffer[] = [];
    for (const s of scenarios) {
      const reply = await strata.call(s.req.method, s.req.path, s.req.body);
      if (reply.json?.errors !== undefined) throw new Error(`${s.name}: ${JSON.stringify(reply.json.errors)}`);
      bodies.push(reply.bytes);
    }
    const barePort = await freePort();
    const bareUrl = `http://127.0.0.1:${barePort}`;
    if (scenarios.length > 0) {
      bare = start(pinned(0, [process.execPath, '-e', BARE_SERVER]), {
        ...process.env,
        PORT: String(barePort),
        BODIES: JSON.stringify(bodies.map((b) => b.toString('base64'))),
      });
      await waitFor(`${bareUrl}/s0`);
    }

    const figures: BenchFigure[] = [
      { name: `seed: ${rows.toLocaleString('en-US')} rows by system API bulk writes of 1,000, projected`, value: rows / seedS, unit: 'rows/s' },
    ];
    const results = new Map<string, { real: Load; bare: Load }>();
    for (const [i, s] of scenarios.entries()) {
      const bareReq: Req = { method: s.req.method, path: `/s${i}`, ...(s.req.body !== undefined ? { body: s.req.body } : {}) };
      await load(strata.url, s.req, strata.pid, 1); // warm-up (JIT, caches, index creation)
      const {
        bare: b,
        real,
        ratio,
      } = await alternate({ base: bareUrl, req: bareReq, pid: bare?.pid as number }, { base: strata.url, req: s.req, pid: strata.pid }, seconds);
      results.set(s.key, { real, bare: b });
      figures.push(
        { name: `${s.name}: bare node:http, same ${bodies[i]?.length ?? 0} bytes`, value: b.rps, unit: 'req/s' },
        { name: `${s.name}: strata`, value: real.rps, unit: 'req/s' },
        { name: `${s.name}: % of bare (median of ${ROUNDS} alternating rounds)`, value: ratio * 100, unit: '%' },
        { name: `${s.name}: per server CPU-second`, value: real.requests / real.cpuS, unit: 'req/cpu-s' },
        { name: `${s.name}: server CPU per request`, value: usPerRequest(real), unit: 'µs' },
        { name: `${s.name}: latency p50 at ${CONNECTIONS} connections`, value: real.p50, unit: 'ms' },
      );
    }
    // Random ids: mostly rows read from SQLite (nothing a bare server could replay byte for byte).
    for (const s of chosen(random)) {
      await load(strata.url, s.req, strata.pid, 1);
      const run = await load(strata.url, s.req, strata.pid, seconds);
      figures.push(
        { name: `${s.name}: strata`, value: run.rps, unit: 'req/s' },
        { name: `${s.name}: server CPU per request`, value: usPerRequest(run), unit: 'µs' },
        { name: `${s.name}: latency p50 at ${CONNECTIONS} connections`, value: run.p50, unit: 'ms' },
      );
    }
    const rps = (key: string) => results.get(key)?.real.rps ?? Number.NaN;
    if (results.has('gqlList') && results.has('gqlListCount')) {
      figures.push({
        name: 'GraphQL list with totalCount / without (target >= 50 %)',
        value: (rps('gqlListCount') / rps('gqlList')) * 100,
        unit: '%',
      });
    }
    // Page 50 against page 1 of the cursor walk (GraphQL, no totalCount) on the draft URL (read from the views every
    // time, nothing kept), one request at a time (at 50 connections latency is mostly queueing): mean latency per page
    // in alternating rounds, the median round's ratio.
    const only = process.env.STRATA_BENCH_SCENARIOS?.split(',');
    if (only === undefined || only.includes('page1') || only.includes('page50')) {
      const first = draftGql(null);
      const fiftieth = draftGql(draftCursors[49] ?? null);
      await load(strata.url, fiftieth, strata.pid, 1, 1); // warm-up
      const ratios: number[] = [];
      const means: { page1: number[]; page50: number[] } = { page1: [], page50: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const one = await load(strata.url, first, strata.pid, 1, 1);
        const fifty = await load(strata.url, fiftieth, strata.pid, 1, 1);
        means.page1.push(1000 / one.rps);
        means.page50.push(1000 / fifty.rps);
        ratios.push(one.rps / fifty.rps);
      }
      figures.push(
        { name: 'list page 1 on the draft GraphQL URL (read from the views), one connection: mean latency', value: median(means.page1), unit: 'ms' },
        { name: 'list page 50 on the draft GraphQL URL, one connection: mean latency', value: median(means.page50), unit: 'ms' },
        { name: 'list page 50 / page 1 latency, draft URL, one connection (target <= 2)', value: median(ratios), unit: '×' },
      );
    }
    return figures;
  } finally {
    bare?.kill('SIGTERM');
    await strata.stop();
  }
}

/**
 * Paired A/B run: the checkout at `baselineRoot` (A, e.g. `git archive` of main with node_modules linked) and this
 * one (B), each seeded alike, loaded in alternating rounds per scenario (each `seconds / ROUNDS` long). Figures:
 * server CPU per request of each and B ÷ A of the median round, so machine drift cancels out.
 */
export async function runGeneratedAb(baselineRoot: string, rows = 100_000, seconds = 10): Promise<BenchFigure[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (hasTaskset) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)]);
  const a = await startServer(baselineRoot);
  let b: BenchServer | undefined;
  try {
    b = await startServer(root);
    const seededA = await seed(a.call, rows);
    const seededB = await seed(b.call, rows);
    const figures: BenchFigure[] = [];
    const pairs = chosen([...seededA.scenarios, ...seededA.random]).map((s) => ({
      s,
      twin: [...seededB.scenarios, ...seededB.random].find((t) => t.key === s.key) as Scenario,
    }));
    const each = Math.max(1, Math.round(seconds / ROUNDS));
    for (const { s, twin } of pairs) {
      await load(a.url, s.req, a.pid, 1);
      await load(b.url, twin.req, b.pid, 1);
      const runsA: Load[] = [];
      const runsB: Load[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        runsA.push(await load(a.url, s.req, a.pid, each));
        runsB.push(await load(b.url, twin.req, b.pid, each));
      }
      const ratios = runsA.map((runA, i) => usPerRequest(runsB[i] as Load) / usPerRequest(runA));
      figures.push(
        { name: `${s.name}: A server CPU per request (median round)`, value: median(runsA.map(usPerRequest)), unit: 'µs' },
        { name: `${s.name}: B server CPU per request (median round)`, value: median(runsB.map(usPerRequest)), unit: 'µs' },
        { name: `${s.name}: B ÷ A CPU per request (median of ${ROUNDS} paired rounds)`, value: median(ratios), unit: '×' },
        {
          name: `${s.name}: A / B req/s (median round)`,
          value: median(runsA.map((r) => r.rps)),
          unit: 'req/s',
          note: `B ${Math.round(median(runsB.map((r) => r.rps)))}`,
        },
      );
    }
    return figures;
  } finally {
    await b?.stop();
    await a.stop();
  }
}

// Run alone: npx tsx bench/generatedBench.ts [rows] [seconds]
// A/B against another checkout: npx tsx bench/generatedBench.ts ab <baseline root> [rows] [seconds]
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ab = process.argv[2] === 'ab';
  const [rows, seconds] = ab ? [process.argv[4], process.argv[5]] : [process.argv[2], process.argv[3]];
  const figures = ab
    ? await runGeneratedAb(process.argv[3] as string, Number(rows ?? 100_000), Number(seconds ?? 10))
    : await runGeneratedBench(Number(rows ?? 100_000), Number(seconds ?? 6));
  for (const f of figures) console.log(`${f.name}: ${f.value.toFixed(2)} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
}
