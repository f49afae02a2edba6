import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Writable } from 'node:stream';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';

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
};

const REFUSED = 1;
const USAGE_ERROR = 2;
const PROGRESS_LINE_INTERVAL_MS = 2000;

type Connection = { readonly url: string; readonly apiKey?: string; readonly token?: string };
type Common = Connection & { readonly org: string; readonly project: string; readonly file?: string };

class Refused extends Error {}
class Usage extends Error {}

function headersOf(connection: Connection): Record<string, string> {
  if (connection.apiKey !== undefined) return { 'X-Api-Key': connection.apiKey };
  if (connection.token !== undefined) return { Authorization: `Bearer ${connection.token}` };
  return {};
}

/**
 * `--url` (default STRATA_URL, then http://localhost:8080) and one credential: `--api-key` or `--token` as given
 * (both: a usage error), else STRATA_API_KEY, else STRATA_TOKEN.
 */
function connectionOf(io: TransferCliIo, options: { url?: string; apiKey?: string; token?: string }): Connection {
  const url = (options.url ?? io.env.STRATA_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  if (options.apiKey !== undefined && options.token !== undefined) throw new Usage('give --api-key or --token, not both');
  if (options.apiKey !== undefined) return { url, apiKey: options.apiKey };
  if (options.token !== undefined) return { url, token: options.token };
  if (io.env.STRATA_API_KEY) return { url, apiKey: io.env.STRATA_API_KEY };
  if (io.env.STRATA_TOKEN) return { url, token: io.env.STRATA_TOKEN };
  return { url };
}

async function call(connection: Connection, method: string, path: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${connection.url}${path}`, { method, headers: headersOf(connection) });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new Refused(`cannot reach ${connection.url}${cause}`);
  }
  if (!res.ok) throw new Refused(`${res.status} ${await res.text()}`);
  return res;
}

/**
 * POSTs `body` and answers the JSON reply. node:http(s) with `pipeline`, not fetch: undici reads a stream body ahead
 * of the socket, so the CLI's memory grew with the file (a 200 MB upload to a server reading at 40 MB/s peaked at
 * 272 MB RSS with fetch, 75 MB this way, flat whatever the file's size).
 */
function upload(connection: Connection, path: string, body: Readable, contentType: string): Promise<unknown> {
  const url = new URL(`${connection.url}${path}`);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const unreachable = (err: Error): void => {
      if (!answered) reject(new Refused(`cannot reach ${connection.url}: ${err.message}`));
    };
    const req = request(url, { method: 'POST', headers: { ...headersOf(connection), 'Content-Type': contentType } });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => reject(new Refused(`cannot reach ${connection.url}: ${err.message}`)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) reject(new Refused(`${status} ${text}`));
        else {
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new Refused(`${status} ${text}`));
          }
        }
        // A server that answered before the end of the file (a refusal) reads no more of it.
        if (!body.readableEnded) req.destroy();
      });
    });
    req.on('error', unreachable);
    pipeline(body, req).catch(unreachable);
  });
}

async function getJson<T>(connection: Connection, path: string): Promise<T> {
  return (await (await call(connection, 'GET', path)).json()) as T;
}

const seg = encodeURIComponent;

/** The project's root branch (the branches list has it first). */
async function rootBranch(connection: Connection, org: string, project: string): Promise<string> {
  const page = await getJson<{ edges: { node: { name: string } }[] }>(
    connection,
    `/api/organization/${seg(org)}/project/${seg(project)}/branches?first=1`,
  );
  const name = page.edges[0]?.node.name;
  if (name === undefined) throw new Refused(`project ${org}/${project} has no branch`);
  return name;
}

/** `--revision head|draft|<id>` on `--branch` (default: the root branch) → a revision id. */
async function revisionOf(connection: Connection, options: Common & { revision: string; branch?: string }): Promise<string> {
  if (options.revision !== 'head' && options.revision !== 'draft') return options.revision;
  const branch = options.branch ?? (await rootBranch(connection, options.org, options.project));
  const ids = await getJson<{ headRevisionId: string; draftRevisionId: string }>(
    connection,
    `/api/organization/${seg(options.org)}/project/${seg(options.project)}/branch/${seg(branch)}`,
  );
  return options.revision === 'head' ? ids.headRevisionId : ids.draftRevisionId;
}

type Progress = { add(amount: number): void; stop(): void };

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
    stop: line,
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

/** Streams a download to `--file` or the data output, counting lines. */
async function download(io: TransferCliIo, res: Response, file: string | undefined, progress: Progress): Promise<void> {
  const body = Readable.fromWeb(res.body as unknown as WebReadableStream);
  const out = file === undefined ? (io.dataOut ?? process.stdout) : createWriteStream(file);
  try {
    await pipeline(body, counting(progress, 'lines'), out, { end: file !== undefined });
  } finally {
    progress.stop();
  }
}

/** The upload body from `--file` (with its size for the bar) or the data input. */
async function uploadBody(io: TransferCliIo, file: string | undefined, label: string): Promise<{ body: Readable; progress: Progress }> {
  const size = file === undefined ? null : (await stat(file)).size;
  const progress = createProgress(io, label, 'bytes', size);
  const source: Readable = file === undefined ? (io.dataIn ?? process.stdin) : createReadStream(file);
  const counted = counting(progress, 'bytes');
  source.on('error', (err) => counted.destroy(err));
  return { body: source.pipe(counted), progress };
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
  const connection = connectionOf(io, options);
  const format = formatOf(options);
  const revisionId = await revisionOf(connection, options);
  const table = `/api/revision/${seg(revisionId)}/table/${seg(options.table)}`;
  const { count } = await getJson<{ count: number }>(connection, table);
  const res = await call(connection, 'GET', `${table}/export?format=${format}${options.meta === true ? '&meta=true' : ''}`);
  // CSV has a header line, and cells may hold newlines: the bar counts lines, not rows.
  await download(io, res, options.file, createProgress(io, `export ${options.table}`, 'lines', format === 'jsonl' ? count : null));
  return 0;
}

async function importTable(
  io: TransferCliIo,
  options: Common & { branch?: string; table: string; format?: string; mode: string; onError: string; dryRun?: boolean },
): Promise<number> {
  const connection = connectionOf(io, options);
  const format = formatOf(options);
  const draft = await revisionOf(connection, { ...options, revision: 'draft' });
  const query = `format=${format}&mode=${seg(options.mode)}&onError=${seg(options.onError)}${options.dryRun === true ? '&dryRun=true' : ''}`;
  const { body, progress } = await uploadBody(io, options.file, `import ${options.table}`);
  try {
    const contentType = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
    const answer = await upload(connection, `/api/revision/${seg(draft)}/table/${seg(options.table)}/import?${query}`, body, contentType);
    io.stdout(`${JSON.stringify(answer)}\n`);
  } finally {
    progress.stop();
  }
  return 0;
}

async function exportBundle(io: TransferCliIo, options: Common & { revision: string; branch?: string }): Promise<number> {
  const connection = connectionOf(io, options);
  const revisionId = await revisionOf(connection, options);
  const res = await call(connection, 'GET', `/api/revision/${seg(revisionId)}/bundle`);
  await download(io, res, options.file, createProgress(io, 'bundle export', 'lines', null));
  return 0;
}

async function importBundle(io: TransferCliIo, options: Common & { branch?: string; mode: string; dryRun?: boolean }): Promise<number> {
  const connection = connectionOf(io, options);
  const branch = options.branch ?? (await rootBranch(connection, options.org, options.project));
  const { body, progress } = await uploadBody(io, options.file, 'bundle import');
  try {
    const path = `/api/organization/${seg(options.org)}/project/${seg(options.project)}/branch/${seg(branch)}/bundle`;
    const query = `mode=${seg(options.mode)}${options.dryRun === true ? '&dryRun=true' : ''}`;
    const answer = await upload(connection, `${path}?${query}`, body, 'application/x-ndjson');
    io.stdout(`${JSON.stringify(answer)}\n`);
  } finally {
    progress.stop();
  }
  return 0;
}

/** Runs one transfer: 0 done, 1 refused (the error body printed), 2 usage. */
async function run(io: TransferCliIo, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof Usage) {
      io.stderr(`error: ${err.message}\n`);
      return USAGE_ERROR;
    }
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
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
    .option('--file <path>', 'read or write this file instead of standard input/output');
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
