import { copyFile, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import { pino, type Logger } from 'pino';
import { JWT_SECRET_FILE } from './config/resolveJwtSecret.ts';

/** What these commands need of the CLI's I/O (deploy/cli.ts CliIo). */
export type BackupCliIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
};

const FAILED = 1;
const EVENTS = 'events.db';
const VIEWS = 'views.db';
/** The folder of the views' version files (projection-worker/adapters/sqlite/sqliteViewFiles.ts `versionDir`). */
const VIEW_VERSIONS = 'views';
/** Copies of the views restarted because a rebuild replaced a version while it was copied. */
const VIEW_COPY_ATTEMPTS = 3;

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * Copies one SQLite file with the online backup API in a single step: the copy is one read transaction, so it is
 * a consistent snapshot while the server keeps writing (WAL: readers never block the writer). Chunked steps would
 * restart whenever another process writes, and under a steady write load never finish.
 */
async function backupFile(from: string, to: string): Promise<void> {
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(to, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
}

type CopiedVersion = { readonly name: string; readonly version: number; readonly active: number; readonly file: string | null };

/**
 * Copies views.db (the meta), then the file of every version it names, each with the backup API. A version dropped
 * between the two (a rebuild finishing) is left out of the copy if it was a shadow; if readers used it, the copy
 * starts again (the new meta names its successor). Each version file holds its own checkpoint, copied with its data.
 */
async function backupViews(io: BackupCliIo, dataDir: string, out: string): Promise<void> {
  const fromDir = join(dataDir, VIEW_VERSIONS);
  const toDir = join(out, VIEW_VERSIONS);
  for (let attempt = 1; ; attempt++) {
    await rm(join(out, VIEWS), { force: true });
    await rm(toDir, { recursive: true, force: true });
    io.stderr(`backup: copying ${VIEWS}\n`);
    await backupFile(join(dataDir, VIEWS), join(out, VIEWS));
    const meta = new Database(join(out, VIEWS));
    try {
      const hasFiles = meta.prepare("SELECT 1 FROM pragma_table_info('strata_view_versions') WHERE name = 'file'").get() !== undefined;
      const versions = hasFiles
        ? meta.prepare<[], CopiedVersion>('SELECT name, version, active, file FROM strata_view_versions WHERE file IS NOT NULL').all()
        : [];
      let replaced = false;
      for (const v of versions) {
        const file = v.file as string;
        if (!(await exists(join(fromDir, file)))) {
          if (v.active === 1) replaced = true;
          else meta.prepare('DELETE FROM strata_view_versions WHERE name = ? AND version = ?').run(v.name, v.version);
          continue;
        }
        await mkdir(toDir, { recursive: true });
        io.stderr(`backup: copying ${VIEW_VERSIONS}/${basename(file)}\n`);
        await backupFile(join(fromDir, file), join(toDir, file)).catch(async (err: unknown) => {
          // Deleted while it was opened: as above.
          if (await exists(join(fromDir, file))) throw err;
          if (v.active === 1) replaced = true;
          else meta.prepare('DELETE FROM strata_view_versions WHERE name = ? AND version = ?').run(v.name, v.version);
        });
      }
      if (!replaced) return;
    } finally {
      meta.close();
    }
    if (attempt >= VIEW_COPY_ATTEMPTS) throw new Error(`the views changed during ${attempt} copies (rebuilds running); try again`);
    io.stderr('backup: a rebuild replaced a version during the copy; copying the views again\n');
  }
}

function logHead(file: string): { events: number; position: number | null } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare<[], { events: number; position: number | null }>('SELECT COUNT(*) AS events, MAX(position) AS position FROM events').get();
    return row ?? { events: 0, position: null };
  } finally {
    db.close();
  }
}

/**
 * `strata backup --out DIR` (portability.md §5): views first, then the log, so the copied views are never ahead of
 * the copied log (a restore lets the projectors catch up from their checkpoints); then DATA_DIR/jwt-secret.
 */
async function backup(io: BackupCliIo, dataDir: string, out: string, logOnly: boolean): Promise<number> {
  const events = join(dataDir, EVENTS);
  if (!(await exists(events))) {
    io.stderr(`error: no event log at ${events}\n`);
    return FAILED;
  }
  await mkdir(out, { recursive: true });
  const existing = await readdir(out);
  if (existing.some((name) => name === EVENTS || name === VIEWS || name === VIEW_VERSIONS)) {
    io.stderr(`error: ${out} already holds a backup\n`);
    return FAILED;
  }
  const started = performance.now();
  if (!logOnly && (await exists(join(dataDir, VIEWS)))) await backupViews(io, dataDir, out);
  io.stderr(`backup: copying ${EVENTS}\n`);
  await backupFile(events, join(out, EVENTS));
  if (await exists(join(dataDir, JWT_SECRET_FILE))) await copyFile(join(dataDir, JWT_SECRET_FILE), join(out, JWT_SECRET_FILE));
  const head = logHead(join(out, EVENTS));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout(`backup of ${dataDir} in ${out}: ${head.events} events up to position ${head.position ?? 'none'} (${seconds} s)\n`);
  return 0;
}

type Verified = { readonly ok: true; readonly events: number; readonly streams: number } | { readonly ok: false; readonly problem: string };

const isObject = (value: unknown): boolean => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The log's own checks: SQLite integrity, every event parses, positions increase, stream revisions contiguous from 0. */
function checkLog(file: string): Verified {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('quick_check', { simple: true });
    if (integrity !== 'ok') return { ok: false, problem: `the SQLite file is damaged: ${String(integrity)}` };
    const rows = db
      .prepare<[], [number, string, number, string, string]>('SELECT position, stream_id, revision, data, metadata FROM events ORDER BY position')
      .raw(true);
    const nextRevision = new Map<string, number>();
    let previous = 0;
    let events = 0;
    for (const [position, streamId, revision, data, metadata] of rows.iterate()) {
      events += 1;
      if (!(position > previous)) return { ok: false, problem: `position ${position}: does not follow position ${previous}` };
      previous = position;
      for (const [name, text] of [
        ['data', data],
        ['metadata', metadata],
      ] as const) {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return { ok: false, problem: `position ${position}: ${name} is not valid JSON` };
        }
        if (!isObject(value)) return { ok: false, problem: `position ${position}: ${name} is not a JSON object` };
      }
      const expected = nextRevision.get(streamId) ?? 0;
      if (revision !== expected)
        return { ok: false, problem: `position ${position}: stream ${streamId} has revision ${revision} where ${expected} was expected` };
      nextRevision.set(streamId, revision + 1);
    }
    return { ok: true, events, streams: nextRevision.size };
  } catch (err) {
    return { ok: false, problem: `the log cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    db.close();
  }
}

/** Replays the whole log into the views at `viewsFile` (every branch's content rebuilt); a failure is a problem. */
async function rebuildViews(eventsFile: string, viewsFile: string, log: Logger): Promise<string | null> {
  // Loaded here so that the other commands of the CLI start without the roles.
  const { createSqliteEventStore } = await import('../command-service/index.ts');
  const { allProjectors, createSqliteViewStore, rebuildProjection } = await import('../projection-worker/index.ts');
  const eventStore = createSqliteEventStore({ file: eventsFile, log });
  const viewStore = createSqliteViewStore({ file: viewsFile, log });
  try {
    for (const projector of allProjectors) await rebuildProjection({ projector, eventStore, viewStore, log, dropDelayMs: 0 });
    return null;
  } catch (err) {
    return `rebuilding the views failed: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    await viewStore.close();
    await eventStore.close();
  }
}

/** `strata verify`: the log's checks, then a rebuild of every projection into a scratch copy (or into `viewsFile`). */
async function verify(io: BackupCliIo, dataDir: string, viewsFile: string | null = null): Promise<number> {
  const events = join(dataDir, EVENTS);
  if (!(await exists(events))) {
    io.stderr(`error: no event log at ${events}\n`);
    return FAILED;
  }
  const checked = checkLog(events);
  if (!checked.ok) {
    io.stderr(`verify failed: ${checked.problem}\n`);
    return FAILED;
  }
  const scratch = viewsFile === null ? await mkdtemp(join(tmpdir(), 'strata-verify-')) : null;
  try {
    const problem = await rebuildViews(events, viewsFile ?? join(scratch as string, VIEWS), pino({ level: 'silent' }));
    if (problem !== null) {
      io.stderr(`verify failed: ${problem}\n`);
      return FAILED;
    }
  } finally {
    if (scratch !== null) await rm(scratch, { recursive: true, force: true });
  }
  io.stdout(`verify ok: ${checked.events} events in ${checked.streams} streams; every projection rebuilt\n`);
  return 0;
}

/** `strata restore --from DIR --data-dir NEW`: copy, verify, and rebuild the views when the backup has none. */
async function restore(io: BackupCliIo, from: string, dataDir: string): Promise<number> {
  if (!(await exists(join(from, EVENTS)))) {
    io.stderr(`error: no ${EVENTS} in ${from}\n`);
    return FAILED;
  }
  if ((await exists(dataDir)) && (await readdir(dataDir)).length > 0) {
    io.stderr(`error: ${dataDir} is not empty; restore only into a new or empty directory\n`);
    return FAILED;
  }
  await mkdir(dataDir, { recursive: true });
  for (const name of [EVENTS, VIEWS, JWT_SECRET_FILE]) {
    if (await exists(join(from, name))) await copyFile(join(from, name), join(dataDir, name));
  }
  if (await exists(join(from, VIEW_VERSIONS))) await cp(join(from, VIEW_VERSIONS), join(dataDir, VIEW_VERSIONS), { recursive: true });
  const hasViews = await exists(join(dataDir, VIEWS));
  // Views in the backup are at most as new as its log (backup copies them first): projectors catch up at start.
  const code = await verify(io, dataDir, hasViews ? null : join(dataDir, VIEWS));
  if (code !== 0) return code;
  io.stdout(`restored ${from} into ${dataDir}${hasViews ? '' : ' (views rebuilt from the log)'}\n`);
  return 0;
}

const dataDirOf = (io: BackupCliIo, option: string | undefined): string => resolve(option ?? io.env.DATA_DIR ?? './data');

async function guarded(io: BackupCliIo, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (err) {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    return FAILED;
  }
}

/** Adds `strata backup`, `strata verify` and `strata restore` (portability.md §5) to the CLI program. */
export function addBackupCommands(program: Command, io: BackupCliIo, setResult: (code: number) => void): void {
  program
    .command('backup')
    .description('copy the embedded stores (events.db, views.db and its version files in views/, jwt-secret) while the server keeps running')
    .requiredOption('--out <dir>', 'directory for the backup (created; must not hold one)')
    .option('--data-dir <dir>', 'the data directory (default DATA_DIR, else ./data)')
    .option('--log-only', 'copy the event log only (views are rebuilt at restore)')
    .action(async (options: { out: string; dataDir?: string; logOnly?: boolean }) => {
      setResult(await guarded(io, () => backup(io, dataDirOf(io, options.dataDir), resolve(options.out), options.logOnly === true)));
    });
  program
    .command('verify')
    .description('check an event log without a server: events parse, positions and revisions, every projection rebuilds')
    .option('--data-dir <dir>', 'the data directory (default DATA_DIR, else ./data)')
    .action(async (options: { dataDir?: string }) => {
      setResult(await guarded(io, () => verify(io, dataDirOf(io, options.dataDir))));
    });
  program
    .command('restore')
    .description('copy a backup into a new data directory, verify it, rebuild missing views')
    .requiredOption('--from <dir>', 'the backup directory')
    .requiredOption('--data-dir <dir>', 'the new data directory (must be empty or absent)')
    .action(async (options: { from: string; dataDir: string }) => {
      setResult(await guarded(io, () => restore(io, resolve(options.from), resolve(options.dataDir))));
    });
}
