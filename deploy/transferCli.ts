import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import {
  Refused,
  TRANSFER_LIMITS,
  oneLine,
  requestJson,
  requestStream,
  type TransferLimits,
  type TransferTarget,
  type Upload,
} from './transferHttp.ts';

/** What the transfer commands need of the CLI's I/O (deploy/cli.ts CliIo). */
export type TransferCliIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Draw progress bars; default: whether standard error is a terminal (else a line every 2 s). */
  readonly progressBar?: boolean;
  /** Where data goes without --file; default process.stdout. */
  readonly dataOut?: Writable;
  /** Where data comes from without --file; default process.stdin. */
  readonly dataIn?: Readable;
  /** Shorter bounds than TRANSFER_LIMITS (tests). */
  readonly limits?: Partial<TransferLimits>;
  /** Certificates to trust instead of the default ones (tests). */
  readonly ca?: readonly (string | Buffer)[];
};

const REFUSED = 1;
const USAGE_ERROR = 2;
const PROGRESS_LINE_INTERVAL_MS = 2000;

type Connection = { readonly url?: string; readonly apiKey?: string; readonly token?: string };
type Common = Connection & { readonly org: string; readonly project: string; readonly file?: string };

class Usage extends Error {}

/**
 * The instance: `--url` (default STRATA_URL, then http://localhost:8080) and one credential: `--api-key` or `--token`
 * as given (both: a usage error), else STRATA_API_KEY, else STRATA_TOKEN.
 */
function targetOf(io: TransferCliIo, options: Connection): TransferTarget {
  const url = (options.url ?? io.env.STRATA_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  return { url, headers: credentialOf(io, options), limits: { ...TRANSFER_LIMITS, ...io.limits }, ...(io.ca ? { ca: io.ca } : {}) };
}

function credentialOf(io: TransferCliIo, options: Connection): Record<string, string> {
  if (options.apiKey !== undefined && options.token !== undefined) throw new Usage('give --api-key or --token, not both');
  const apiKey = options.apiKey ?? (options.token === undefined && io.env.STRATA_API_KEY ? io.env.STRATA_API_KEY : undefined);
  if (apiKey !== undefined) return { 'X-Api-Key': apiKey };
  const token = options.token ?? (io.env.STRATA_TOKEN || undefined);
  return token === undefined ? {} : { Authorization: `Bearer ${token}` };
}

/** A JSON answer checked for the fields the CLI uses: a server that is not Strata gets a clear refusal, not a crash. */
async function getJson<T>(target: TransferTarget, path: string, fields: string, isShape: (value: Record<string, unknown>) => boolean): Promise<T> {
  const value = await requestJson(target, 'GET', path);
  if (typeof value === 'object' && value !== null && isShape(value as Record<string, unknown>)) return value as T;
  throw new Refused(`${target.url}: the answer to GET ${path} is not Strata's (no ${fields})`);
}

const seg = encodeURIComponent;

/** The project's root branch (the branches list has it first). */
async function rootBranch(target: TransferTarget, org: string, project: string): Promise<string> {
  const page = await getJson<{ edges: { node?: { name?: unknown } }[] }>(
    target,
    `/api/organization/${seg(org)}/project/${seg(project)}/branches?first=1`,
    'edges',
    (value) => Array.isArray(value.edges),
  );
  const name = page.edges[0]?.node?.name;
  if (typeof name !== 'string') throw new Refused(`project ${org}/${project} has no branch`);
  return name;
}

/** `--revision head|draft|<id>` on `--branch` (default: the root branch) → a revision id. */
async function revisionOf(target: TransferTarget, options: Common & { revision: string; branch?: string }): Promise<string> {
  if (options.revision !== 'head' && options.revision !== 'draft') return options.revision;
  const branch = options.branch ?? (await rootBranch(target, options.org, options.project));
  const ids = await getJson<{ headRevisionId: string; draftRevisionId: string }>(
    target,
    `/api/organization/${seg(options.org)}/project/${seg(options.project)}/branch/${seg(branch)}`,
    'headRevisionId and draftRevisionId',
    (value) => typeof value.headRevisionId === 'string' && typeof value.draftRevisionId === 'string',
  );
  return options.revision === 'head' ? ids.headRevisionId : ids.draftRevisionId;
}

/** `stop(failed)`: a transfer that failed before anything passed prints no count line (its error line says it all). */
type Progress = { add(amount: number): void; stop(failed?: boolean): void };

/** A bar on a terminal; elsewhere a line at most every 2 s. `total` null: a count without a bar's end. */
function createProgress(io: TransferCliIo, label: string, unit: string, total: number | null): Progress {
  if (io.progressBar ?? Boolean(process.stderr.isTTY)) {
    const format = total === null ? `${label} {value} ${unit}` : `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | ETA {eta_formatted}`;
    const bar = new SingleBar({ stream: process.stderr, hideCursor: true, format }, Presets.shades_classic);
    bar.start(total ?? 0, 0);
    let done = 0;
    return {
      add(amount) {
        done += amount;
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  let done = 0;
  let last = Date.now();
  const line = () => io.stderr(`${label}: ${done}${total === null ? '' : `/${total}`} ${unit}\n`);
  return {
    add(amount) {
      done += amount;
      if (Date.now() - last < PROGRESS_LINE_INTERVAL_MS) return;
      last = Date.now();
      line();
    },
    stop: (failed = false) => {
      if (!failed || done > 0) line();
    },
  };
}

/** Counts what passes (bytes, or lines: `\n` bytes) into `progress`. */
function counting(progress: Progress, what: 'bytes' | 'lines'): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (what === 'bytes') progress.add(chunk.length);
      else {
        let lines = 0;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        progress.add(lines);
      }
      done(null, chunk);
    },
  });
}

/**
 * Streams a GET's answer to `--file` (opened once the answer is a 2xx) or the data output, counting lines. A download
 * that fails midway removes the file it wrote: a truncated export must not pass for a whole one.
 */
async function download(io: TransferCliIo, target: TransferTarget, path: string, file: string | undefined, progress: Progress): Promise<void> {
  let opened = false;
  let failed = true;
  try {
    await requestStream(target, path, async (body) => {
      const out: Writable = file === undefined ? (io.dataOut ?? process.stdout) : createWriteStream(file);
      opened = file !== undefined;
      let writeError: Error | null = null;
      out.once('error', (err: Error) => (writeError = err));
      try {
        await pipeline(body, counting(progress, 'lines'), out, { end: file !== undefined });
      } catch (err) {
        if (writeError === null) throw err;
        throw new Refused(`cannot write ${file ?? 'standard output'}: ${(writeError as Error).message}`);
      }
    });
    failed = false;
  } catch (err) {
    if (opened && file !== undefined) await rm(file, { force: true });
    throw err;
  } finally {
    progress.stop(failed);
  }
}

/** The upload body from `--file` (with its size for the bar) or the data input. */
async function uploadBody(io: TransferCliIo, file: string | undefined, label: string, contentType: string): Promise<Upload & { progress: Progress }> {
  const size = file === undefined ? null : (await stat(file)).size;
  const progress = createProgress(io, label, 'bytes', size);
  const source: Readable = file === undefined ? (io.dataIn ?? process.stdin) : createReadStream(file);
  const body = counting(progress, 'bytes');
  // A failed upload destroys `body`, and the pipeline closes the source with it.
  pipeline(source, body).catch(() => undefined);
  return { body, contentType, progress };
}

function formatOf(options: { format?: string; file?: string }): 'jsonl' | 'csv' {
  const format = options.format ?? (options.file?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  if (format !== 'jsonl' && format !== 'csv') throw new Usage('--format must be jsonl or csv');
  return format;
}

async function exportTable(
  io: TransferCliIo,
  options: Common & { revision: string; branch?: string; table: string; format?: string; meta?: boolean },
): Promise<number> {
  const target = targetOf(io, options);
  const format = formatOf(options);
  const revisionId = await revisionOf(target, options);
  const table = `/api/revision/${seg(revisionId)}/table/${seg(options.table)}`;
  const { count } = await getJson<{ count: number }>(target, table, 'count', (value) => typeof value.count === 'number');
  // CSV has a header line, and cells may hold newlines: the bar counts lines, not rows.
  const progress = createProgress(io, `export ${options.table}`, 'lines', format === 'jsonl' ? count : null);
  await download(io, target, `${table}/export?format=${format}${options.meta === true ? '&meta=true' : ''}`, options.file, progress);
  return 0;
}

/** POSTs an upload and prints the JSON answer. */
async function send(io: TransferCliIo, target: TransferTarget, path: string, upload: Upload & { progress: Progress }): Promise<number> {
  let failed = true;
  try {
    io.stdout(`${JSON.stringify(await requestJson(target, 'POST', path, upload))}\n`);
    failed = false;
  } finally {
    upload.progress.stop(failed);
  }
  return 0;
}

async function importTable(
  io: TransferCliIo,
  options: Common & { branch?: string; table: string; format?: string; mode: string; onError: string; dryRun?: boolean },
): Promise<number> {
  const target = targetOf(io, options);
  const format = formatOf(options);
  const draft = await revisionOf(target, { ...options, revision: 'draft' });
  const query = `format=${format}&mode=${seg(options.mode)}&onError=${seg(options.onError)}${options.dryRun === true ? '&dryRun=true' : ''}`;
  const upload = await uploadBody(io, options.file, `import ${options.table}`, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
  return send(io, target, `/api/revision/${seg(draft)}/table/${seg(options.table)}/import?${query}`, upload);
}

async function exportBundle(io: TransferCliIo, options: Common & { revision: string; branch?: string }): Promise<number> {
  const target = targetOf(io, options);
  const revisionId = await revisionOf(target, options);
  await download(io, target, `/api/revision/${seg(revisionId)}/bundle`, options.file, createProgress(io, 'bundle export', 'lines', null));
  return 0;
}

async function importBundle(io: TransferCliIo, options: Common & { branch?: string; mode: string; dryRun?: boolean }): Promise<number> {
  const target = targetOf(io, options);
  const branch = options.branch ?? (await rootBranch(target, options.org, options.project));
  const path = `/api/organization/${seg(options.org)}/project/${seg(options.project)}/branch/${seg(branch)}/bundle`;
  const query = `mode=${seg(options.mode)}${options.dryRun === true ? '&dryRun=true' : ''}`;
  return send(io, target, `${path}?${query}`, await uploadBody(io, options.file, 'bundle import', 'application/x-ndjson'));
}

/**
 * Runs one transfer: 0 done, 1 refused (the status and error body, or why the request failed, on one line), 2 usage.
 */
async function run(io: TransferCliIo, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof Usage) {
      io.stderr(`error: ${err.message}\n`);
      return USAGE_ERROR;
    }
    io.stderr(`error: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return REFUSED;
  }
}

function withConnection(command: Command): Command {
  return command
    .option('--url <url>', 'the Strata instance (default http://localhost:8080, or STRATA_URL)')
    .option('--api-key <key>', 'an API key (default STRATA_API_KEY)')
    .option('--token <token>', 'an access token (default STRATA_TOKEN)')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--project <project>', 'project name')
    .option('--file <path>', 'read or write this file instead of standard input/output')
    .addHelpText(
      'after',
      `\nGives up (exit 1) when the server leaves it waiting ${TRANSFER_LIMITS.stallMs / 1000} s without a byte moving (a long transfer\nthat keeps moving has no deadline). Redirects are not followed.`,
    );
}

/** Adds `strata export`, `strata import` and `strata bundle export|import` (portability.md §4) to the CLI program. */
export function addTransferCommands(program: Command, io: TransferCliIo, setResult: (code: number) => void): void {
  withConnection(program.command('export').description("export a table's rows as JSON Lines or CSV (to standard output)"))
    .requiredOption('--table <table>', 'table id')
    .option('--revision <revision>', 'head, draft or a revision id', 'head')
    .option('--branch <branch>', 'branch of head/draft (default: the root branch)')
    .option('--format <format>', 'jsonl or csv (default from --file, else jsonl)')
    .option('--meta', 'JSON Lines: add createdAt and updatedAt')
    .action(async (options: Parameters<typeof exportTable>[1]) => setResult(await run(io, () => exportTable(io, options))));
  withConnection(program.command('import').description("import JSON Lines or CSV into a table of a branch's draft (from standard input)"))
    .requiredOption('--table <table>', 'table id')
    .option('--branch <branch>', 'the branch whose draft is written (default: the root branch)')
    .option('--format <format>', 'jsonl or csv (default from --file, else jsonl)')
    .option('--mode <mode>', 'insert, upsert or replace', 'insert')
    .option('--on-error <policy>', 'fail or skip', 'fail')
    .option('--dry-run', 'validate and count, write nothing')
    .action(async (options: Parameters<typeof importTable>[1]) => setResult(await run(io, () => importTable(io, options))));
  const bundle = program.command('bundle').description('revision bundles between instances');
  withConnection(bundle.command('export').description("a revision's tables and rows as one JSON Lines stream (to standard output)"))
    .option('--revision <revision>', 'head, draft or a revision id', 'head')
    .option('--branch <branch>', 'branch of head/draft (default: the root branch)')
    .action(async (options: Parameters<typeof exportBundle>[1]) => setResult(await run(io, () => exportBundle(io, options))));
  withConnection(bundle.command('import').description("import a bundle into a branch's draft (from standard input)"))
    .option('--branch <branch>', 'the branch whose draft is written (default: the root branch)')
    .option('--mode <mode>', 'replace or merge', 'replace')
    .option('--dry-run', "answer the draft's changes, write nothing")
    .action(async (options: Parameters<typeof importBundle>[1]) => setResult(await run(io, () => importBundle(io, options))));
}
