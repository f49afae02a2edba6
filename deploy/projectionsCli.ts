import { createInterface } from 'node:readline/promises';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import type { Logger } from 'pino';
import { comparePositions, systemClock } from '../contracts/index.ts';
import { allProjectors, describeAllProjections, rebuildProjection } from '../projection-worker/index.ts';
import type { ProjectionReport, Projector } from '../projection-worker/index.ts';
import { cliConfig } from './cliConfig.ts';
import { isConfigError, type StrataConfig } from './config/strataConfig.ts';
import { probe } from './http/projectionLag.ts';
import { createRootLogger } from './logger.ts';
import { openStores, type Stores } from './openInfra.ts';

/** What these commands need of the CLI's I/O (deploy/cli.ts CliIo). */
export type ProjectionsCliIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Asks a yes/no question; default: one line from standard input. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** Draw a progress bar (standard error is a terminal); default: whether it is. Else progress lines. */
  readonly progressBar?: boolean;
};

const FAILED = 1;
const USAGE_ERROR = 2;
const STORES_UNREACHABLE = 2;
const PROBE_TIMEOUT_MS = 5000;
const PROGRESS_LINE_INTERVAL_MS = 2000;

type Opened = { readonly stores: Stores; readonly log: Logger; readonly config: StrataConfig };

/** Opens only the stores (no queue, no Redis); `unreachable` is the exit code when they cannot be reached. */
async function withStores(io: ProjectionsCliIo, unreachable: number, run: (opened: Opened) => Promise<number>): Promise<number> {
  const config = cliConfig(io);
  if (config === null) return 1;
  const log = createRootLogger(config, { write: (line: string) => io.stderr(line) });
  let stores: Stores;
  try {
    stores = await openStores(config, log);
  } catch (err) {
    if (isConfigError(err)) {
      io.stderr(`${err.message}\n`);
      return 1;
    }
    io.stderr(`error: cannot open the stores: ${err instanceof Error ? err.message : String(err)}\n`);
    return unreachable;
  }
  try {
    const [eventStoreUp, viewStoreUp] = await Promise.all([
      probe(() => stores.eventStore.ping(), PROBE_TIMEOUT_MS),
      probe(() => stores.viewStore.ping(), PROBE_TIMEOUT_MS),
    ]);
    if (!eventStoreUp || !viewStoreUp) {
      const down = [eventStoreUp ? null : 'event store', viewStoreUp ? null : 'view store'].filter((s) => s !== null);
      io.stderr(`error: ${down.join(' and ')} unreachable\n`);
      return unreachable;
    }
    return await run({ stores, log, config });
  } finally {
    await stores.close();
  }
}

/** Stored versions, plus a line for every known projection no projector has created yet. */
function projectionReports(stores: Stores): Promise<ProjectionReport[]> {
  return describeAllProjections({ projectors: allProjectors, eventStore: stores.eventStore, viewStore: stores.viewStore, clock: systemClock });
}

const COLUMNS = ['NAME', 'VERSION', 'STATUS', 'POSITION', 'HEAD', 'LAG', 'UPDATED', 'ERROR'] as const;

function statusRecord(r: ProjectionReport) {
  return {
    name: r.name,
    version: r.version,
    status: r.status,
    position: r.position,
    head: r.head,
    lag: r.lag,
    updated: r.updatedAt === null ? null : new Date(r.updatedAt).toISOString(),
    error: r.error,
  };
}

/** Aligned columns (operations.md §5 example); empty values print as `-`, the error column as is. */
export function formatStatusTable(reports: readonly ProjectionReport[]): string {
  const rows = reports.map((r) => {
    const s = statusRecord(r);
    return [
      s.name,
      String(s.version),
      s.status,
      s.position ?? '-',
      s.head ?? '-',
      String(s.lag),
      s.updated ?? '-',
      (s.error ?? '').replace(/\s+/g, ' '),
    ];
  });
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd((widths[i] ?? 0) + 2)))
      .join('')
      .trimEnd();
  return [line(COLUMNS), ...rows.map(line)].join('\n') + '\n';
}

/** One JSON object per line with the table's keys in camelCase. */
export function formatStatusJsonLines(reports: readonly ProjectionReport[]): string {
  return reports.map((r) => `${JSON.stringify(statusRecord(r))}\n`).join('');
}

async function status(io: ProjectionsCliIo, json: boolean): Promise<number> {
  return withStores(io, STORES_UNREACHABLE, async ({ stores }) => {
    let reports: ProjectionReport[];
    try {
      reports = await projectionReports(stores);
    } catch (err) {
      io.stderr(`error: stores unreachable: ${err instanceof Error ? err.message : String(err)}\n`);
      return STORES_UNREACHABLE;
    }
    io.stdout(json ? formatStatusJsonLines(reports) : formatStatusTable(reports));
    return 0;
  });
}

async function askOnStdin(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: Boolean(process.stdin.isTTY) });
  try {
    const closed = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
    const answer = await Promise.race([rl.question(question), closed]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

type Progress = { update(done: number, total: number): void; stop(): void };

/** A bar on a terminal; elsewhere a line at most every 2 s (and at 100 %). */
function createProgress(io: ProjectionsCliIo, name: string): Progress {
  if (io.progressBar ?? Boolean(process.stderr.isTTY)) {
    const bar = new SingleBar(
      { stream: process.stderr, hideCursor: true, format: `${name} [{bar}] {percentage}% | {value}/{total} events | ETA {eta_formatted}` },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) bar.start(total, done);
        else bar.setTotal(total);
        started = true;
        bar.update(done);
      },
      stop: () => (started ? bar.stop() : undefined),
    };
  }
  let last = 0;
  let lastLine = '';
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < PROGRESS_LINE_INTERVAL_MS) return;
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      const line = `${name}: ${done}/${total} events (${percent}%)\n`;
      if (line === lastLine) return;
      last = now;
      lastLine = line;
      io.stderr(line);
    },
    stop() {},
  };
}

async function rebuildOne(io: ProjectionsCliIo, projector: Projector, stores: Stores, log: Logger): Promise<boolean> {
  const name = projector.spec.name;
  const progress = createProgress(io, name);
  const started = performance.now();
  try {
    const result = await rebuildProjection({
      projector,
      eventStore: stores.eventStore,
      viewStore: stores.viewStore,
      log,
      onProgress: (done, total) => progress.update(done, total),
    });
    progress.stop();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const from = result.previousVersion === null ? 'none' : String(result.previousVersion);
    io.stdout(`${name}: rebuilt ${result.events} events into version ${result.version} in ${seconds} s (readers switched from version ${from})\n`);
    return true;
  } catch (err) {
    progress.stop();
    io.stderr(`error: rebuild of ${name} failed; the live copy is untouched: ${err instanceof Error ? err.message : String(err)}\n`);
    return false;
  }
}

async function rebuild(io: ProjectionsCliIo, name: string, yes: boolean): Promise<number> {
  const names = allProjectors.map((p) => p.spec.name);
  const chosen = name === 'all' ? allProjectors : allProjectors.filter((p) => p.spec.name === name);
  if (chosen.length === 0) {
    io.stderr(`error: unknown projection "${name}"; valid names: ${names.join(', ')} (or all)\n`);
    return USAGE_ERROR;
  }
  if (!yes) {
    const what = name === 'all' ? `every projection (${names.join(', ')})` : `projection ${name}`;
    const question = `Rebuild ${what} from the whole log? The live copy keeps serving until the switch. [y/N] `;
    if (!(await (io.confirm ?? askOnStdin)(question))) {
      io.stderr('rebuild cancelled\n');
      return FAILED;
    }
  }
  return withStores(io, FAILED, async ({ stores, log }) => {
    for (const projector of chosen) {
      if (!(await rebuildOne(io, projector, stores, log))) return FAILED;
    }
    const head = await stores.eventStore.headPosition();
    const behind = (await stores.viewStore.projectionStatuses()).filter(
      (s) => s.active && chosen.some((p) => p.spec.name === s.name) && comparePositions(s.position, head) < 0,
    );
    if (behind.length > 0) io.stderr(`note: ${behind.map((s) => s.name).join(', ')} will catch up with newer events once a projector runs\n`);
    return 0;
  });
}

/** Adds `strata projections status` and `strata projections rebuild` (operations.md §5) to the CLI program. */
export function addProjectionCommands(program: Command, io: ProjectionsCliIo, setResult: (code: number) => void): void {
  const projections = program.command('projections').description('projection status and rebuilds');
  projections
    .command('status')
    .description('one line per projection: NAME VERSION STATUS POSITION HEAD LAG UPDATED ERROR')
    .option('--json', 'one JSON object per line')
    .action(async (options: { json?: boolean }) => {
      setResult(await status(io, options.json === true));
    });
  projections
    .command('rebuild')
    .description('replay the whole log into the next storage version, switch readers to it, drop the old copy')
    .argument('<name>', `projection name (${allProjectors.map((p) => p.spec.name).join(', ')}) or all`)
    .option('--yes', 'do not ask for confirmation')
    .action(async (name: string, options: { yes?: boolean }) => {
      setResult(await rebuild(io, name, options.yes === true));
    });
}
