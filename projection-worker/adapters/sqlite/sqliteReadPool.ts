import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { AppError } from '../../../contracts/index.ts';
import type { Position, ProjectionRef } from '../../../contracts/index.ts';
import type { Params } from './sqliteViewSql.ts';
import type { TableInfo } from './sqliteViewTable.ts';
import type { StoredChange } from './sqliteViewChanges.ts';

/**
 * A batch of view changes with its checkpoint move, applied in one transaction by a writable thread (the batches of
 * a rebuild's shadow version, sqliteViewStore.ts): the same compare-and-set and changes as on the main connection.
 */
export type ThreadBatch = {
  readonly ref: ProjectionRef;
  readonly expected: Position | null;
  readonly next: Position;
  readonly now: number;
  readonly tables: ReadonlyMap<string, TableInfo>;
  /** Runs of upserts arrive encoded (sqliteViewChanges.ts `encodeViewChanges`). */
  readonly changes: readonly StoredChange[];
};

/** What the main thread asks a thread (sqliteReadThread.ts) to run. */
export type ReadRequest = {
  readonly id: number;
  readonly mode: 'rows' | 'value' | 'exec' | 'apply';
  /** The view file the statement runs on (views.db or a version file). */
  readonly file: string;
  readonly sql: string;
  readonly params: Params;
  /** For `apply`: the batch (the thread answers whether the checkpoint moved). */
  readonly batch?: ThreadBatch;
};
export type ReadReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly code: string | null };
export type ReadThreadData = {
  /** The file opened at start (views.db): the thread is ready once it can read it. */
  readonly file: string;
  readonly writable: boolean;
  readonly busyTimeoutMs: number;
  /** Scheduling niceness of the thread (Linux; default 10: below the event loop's thread). */
  readonly niceness?: number;
  /** Page cache of each connection, KiB (default 16,384). */
  readonly cacheKiB?: number;
  /** Int32Array(1) over it: the id of the statement the main thread cancelled. */
  readonly cancel: SharedArrayBuffer;
};

/** Reads off the event loop (createSqliteViewStore's `reads`); without them every statement runs on the caller's thread. */
export type SqliteReadOptions = {
  /** QUERY_TIMEOUT_MS: longest a read other than by key may take (queueing included) before `503 QUERY_TIMEOUT`. */
  readonly timeoutMs: number;
  /** Read connections (threads) running at once; default 2. */
  readonly threads?: number;
  /**
   * The projections whose reads can run long (large collections, filters and sorts on data): only they go to the
   * threads, so small reads (system state, schemas, catalogs) never queue behind a slow one. Default: all.
   */
  readonly projections?: readonly string[];
  /** The threads' body as one script (SqliteThreadsOptions.source). */
  readonly source?: string;
  /** Page cache of each read connection, KiB (default 16,384). */
  readonly cacheKiB?: number;
};

/** The read threads' part of SqliteThreadsOptions for `reads`. */
export function readThreadOptions(reads: SqliteReadOptions | undefined): Pick<SqliteThreadsOptions, 'threads' | 'budgetMs' | 'cacheKiB'> {
  return { threads: reads?.threads ?? 2, budgetMs: reads?.timeoutMs ?? null, ...(reads?.cacheKiB === undefined ? {} : { cacheKiB: reads.cacheKiB }) };
}

export type SqliteThreadsOptions = {
  readonly file: string;
  /** Threads (connections) running statements at once. */
  readonly threads: number;
  /** Longest a statement may take from the call (queueing included) before it fails with QUERY_TIMEOUT; null: none. */
  readonly budgetMs: number | null;
  readonly writable: boolean;
  readonly busyTimeoutMs?: number;
  /** Start threads with the first statement rather than at once. */
  readonly lazy?: boolean;
  /**
   * The threads' body (sqliteThreadEntry and what it imports) bundled into one CommonJS script by the composition
   * root. Without it a thread loads the TypeScript body through module hooks of its own (tsx: tests and benches),
   * which costs each thread a hooks thread and ~25 MB.
   */
  readonly source?: string;
  /** Lazy threads idle this long are ended (their connections and heaps freed) and start again when needed; default 30 s. */
  readonly idleMs?: number;
  /** Scheduling niceness of the threads (default 10). */
  readonly niceness?: number;
  /** Page cache of each connection, KiB (default 16,384). */
  readonly cacheKiB?: number;
  readonly log?: Logger;
};

/** Statements run on SQLite connections in worker threads, so that no statement holds the event loop. */
export type SqliteThreads = {
  rows(file: string, sql: string, params: Params): Promise<unknown[][]>;
  value(file: string, sql: string, params: Params): Promise<unknown>;
  exec(file: string, sql: string): Promise<void>;
  /** Applies a batch of view changes and moves the file's checkpoint in one transaction; false when the checkpoint was not `expected`. */
  apply(file: string, batch: ThreadBatch): Promise<boolean>;
  /** Closes the threads' connections to a dropped file (after the statements already sent to them). */
  forget(file: string): void;
  /** False once threads failed to start several times in a row: the caller then reads on its own connection. */
  available(): boolean;
  /** Threads started and not yet exited, including those abandoned past the budget and still finishing a statement. */
  stats(): { readonly live: number; readonly abandoned: number; readonly queued: number };
  close(): Promise<void>;
};

type Task = {
  readonly request: Omit<ReadRequest, 'id'>;
  /** Set when the task is queued while a thread is ready, else when a thread takes it; null without a budget. */
  deadline: number | null;
  readonly budgeted: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: unknown) => void;
};
type Thread = {
  readonly worker: Worker;
  /** Shared with the thread: the id of the statement to cancel (sqliteReadThread.ts). */
  readonly cancel: Int32Array;
  task: Task | null;
  id: number;
  timer: NodeJS.Timeout | null;
  ready: boolean;
  /** A statement past its budget was asked to stop; the thread is idle again once it answers. */
  cancelling: boolean;
};

/** How long a statement asked to stop may take to answer before its thread is set aside (a replacement starts). */
const CANCEL_GRACE_MS = 50;

const ENTRY = new URL('./sqliteReadWorker.mjs', import.meta.url);
/** The module a thread runs (what SqliteThreadsOptions.source bundles). */
export const sqliteThreadEntry = fileURLToPath(new URL('./sqliteReadThread.ts', import.meta.url));
const MAX_FAILED_STARTS = 3;
/** How long close() lets threads finish the statement they are running before terminating them. */
const CLOSE_GRACE_MS = 5_000;

/**
 * A pool of SQLite connections in worker threads. better-sqlite3 cannot interrupt a running statement, so a
 * statement past its budget is abandoned: its caller gets `503 QUERY_TIMEOUT` at once, the statement is asked to stop
 * (it does at its next strata_* function call) and, if it does not within the grace, its thread is set aside to
 * finish it while a fresh thread takes its place. A thread is never terminated while it may be inside SQLite
 * (terminating a worker inside a native addon call risks the whole process; it would not stop the statement sooner
 * anyway): set aside, it drops its result when the statement ends, then serves again or is terminated idle.
 * Threads set aside still use a core until their statement ends, so at most `threads` of them are tolerated: beyond
 * that no new thread starts and queued statements wait (and time out) rather than crowd the cores.
 */
export function createSqliteThreads(options: SqliteThreadsOptions): SqliteThreads {
  const live = new Set<Thread>();
  /** Threads set aside past the grace, still inside a statement nobody waits for (counted by `abandoned`). */
  const draining = new Set<Thread>();
  const idle: Thread[] = [];
  const queue: Task[] = [];
  let abandoned = 0;
  let nextId = 1;
  let closed = false;
  let started = options.lazy !== true;
  // Threads that exited before their connection opened, in a row: a broken setup must not respawn forever.
  let failedStarts = 0;
  let startError: unknown = null;
  /** The timer that ends the threads of a lazy pool left idle (retireIdle). */
  let retire: NodeJS.Timeout | null = null;
  const data = {
    file: options.file,
    writable: options.writable,
    busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    ...(options.niceness === undefined ? {} : { niceness: options.niceness }),
    ...(options.cacheKiB === undefined ? {} : { cacheKiB: options.cacheKiB }),
  };

  function timeoutError(): AppError {
    return new AppError('QUERY_TIMEOUT', `The query ran longer than ${options.budgetMs} ms`, undefined, { 'Retry-After': '1' });
  }

  /** A new thread; it takes statements once its connection is open (its `ready` message). */
  function spawn(): Thread {
    const cancel = new SharedArrayBuffer(4);
    const workerData = { ...data, cancel } satisfies ReadThreadData;
    const worker = options.source === undefined ? new Worker(ENTRY, { workerData }) : new Worker(options.source, { eval: true, workerData });
    const thread: Thread = { worker, cancel: new Int32Array(cancel), task: null, id: 0, timer: null, ready: false, cancelling: false };
    live.add(thread);
    worker.on('message', (reply: ReadReply | { readonly ready: true }) => {
      if ('ready' in reply) {
        thread.ready = true;
        failedStarts = 0;
        // An idle thread does not keep the process alive; a starting or busy one does.
        worker.unref();
        release(thread);
        return;
      }
      if (draining.has(thread)) {
        if (reply.id !== thread.id) return;
        // Its statement ended (result dropped): idle in JavaScript, it serves again or is terminated safely.
        draining.delete(thread);
        abandoned -= 1;
        thread.cancelling = false;
        finish(thread);
        if (!closed && live.size < options.threads) {
          live.add(thread);
          release(thread);
        } else {
          void thread.worker.terminate();
          pump();
        }
        return;
      }
      if (thread.cancelling && reply.id === thread.id) {
        // The statement stopped when asked (or ended within the grace): the thread serves on.
        thread.cancelling = false;
        finish(thread);
        release(thread);
        return;
      }
      const task = thread.task;
      if (task === null || reply.id !== thread.id) return;
      finish(thread);
      if (reply.ok) task.resolve(reply.result);
      else task.reject(Object.assign(new Error(reply.message), reply.code === null ? {} : { code: reply.code }));
      release(thread);
    });
    worker.on('error', (err) => {
      options.log?.error({ err }, 'view store thread failed');
      if (!thread.ready) startError = err;
      const task = thread.task;
      finish(thread);
      task?.reject(err);
    });
    worker.on('exit', () => {
      if (draining.delete(thread)) abandoned -= 1;
      if (!thread.ready && live.has(thread) && ++failedStarts >= MAX_FAILED_STARTS) {
        startError ??= new Error('view store threads cannot start');
        options.log?.error({ attempts: failedStarts }, 'view store threads cannot start; reading on the main connection');
        for (const task of queue.splice(0)) task.reject(startError);
      }
      if (live.delete(thread)) {
        const i = idle.indexOf(thread);
        if (i >= 0) idle.splice(i, 1);
        thread.task?.reject(new Error('view store thread exited'));
        finish(thread);
      }
      pump();
    });
    return thread;
  }

  function finish(thread: Thread): void {
    if (thread.timer !== null) clearTimeout(thread.timer);
    thread.timer = null;
    thread.task = null;
    if (thread.ready) thread.worker.unref();
  }

  function release(thread: Thread): void {
    if (!live.has(thread)) return;
    idle.push(thread);
    pump();
    if (options.lazy === true && queue.length === 0 && idle.length === live.size && draining.size === 0) {
      if (retire !== null) clearTimeout(retire);
      retire = setTimeout(retireIdle, options.idleMs ?? 30_000).unref();
    }
  }

  /** A lazy pool idle for idleMs ends its threads (idle, so none is inside SQLite); the next statement starts one. */
  function retireIdle(): void {
    retire = null;
    if (closed || queue.length > 0 || idle.length !== live.size || draining.size > 0) return;
    const threads = idle.splice(0);
    live.clear();
    started = false;
    for (const thread of threads) void thread.worker.terminate();
  }

  /**
   * A statement past its budget: its caller gets QUERY_TIMEOUT at once; the statement is asked to stop (it does at
   * its next call of a strata_* SQL function) and its thread is set aside if it has not answered within the grace.
   */
  function timeOut(thread: Thread): void {
    const task = thread.task;
    finish(thread);
    thread.worker.ref();
    task?.reject(timeoutError());
    options.log?.warn({ budgetMs: options.budgetMs, sql: task?.request.sql.slice(0, 200) }, 'view query past its budget cancelled');
    thread.cancelling = true;
    Atomics.store(thread.cancel, 0, thread.id);
    thread.timer = setTimeout(() => abandon(thread), CANCEL_GRACE_MS);
  }

  /** Past the grace: the thread (inside SQLite, maybe for seconds) leaves the pool to finish; a fresh one replaces it. */
  function abandon(thread: Thread): void {
    const task = thread.task;
    finish(thread);
    thread.worker.ref();
    live.delete(thread);
    draining.add(thread);
    abandoned += 1;
    options.log?.warn({ graceMs: CANCEL_GRACE_MS }, 'view query did not stop when cancelled; its thread is replaced');
    task?.reject(timeoutError());
    pump();
  }

  function pump(): void {
    // Threads past their budget are replaced at once, unless as many are still finishing their statement.
    while (started && !closed && failedStarts < MAX_FAILED_STARTS && live.size < options.threads && abandoned < options.threads) spawn();
    while (queue.length > 0 && !closed) {
      const task = queue[0] as Task;
      if (task.deadline !== null && task.deadline <= Date.now()) {
        queue.shift();
        task.reject(timeoutError());
        continue;
      }
      const thread = idle.pop();
      if (thread === undefined) return;
      queue.shift();
      dispatch(thread, task);
    }
  }

  function dispatch(thread: Thread, task: Task): void {
    if (retire !== null) clearTimeout(retire);
    retire = null;
    thread.task = task;
    thread.id = nextId++;
    thread.worker.ref();
    if (task.budgeted && task.deadline === null && options.budgetMs !== null) task.deadline = Date.now() + options.budgetMs;
    if (task.deadline !== null) thread.timer = setTimeout(() => timeOut(thread), Math.max(0, task.deadline - Date.now()));
    thread.worker.postMessage({ ...task.request, id: thread.id } satisfies ReadRequest);
  }

  function submit(request: Omit<ReadRequest, 'id'>, budgeted: boolean): Promise<unknown> {
    if (closed) return Promise.reject(new Error('view store is closed'));
    if (failedStarts >= MAX_FAILED_STARTS) return Promise.reject(startError);
    return new Promise((resolve, reject) => {
      // The budget is the caller's wait, queueing included, but not the start of threads (at startup, or replacing
      // abandoned ones when no thread is ready).
      const anyReady = [...live].some((thread) => thread.ready);
      const deadline = budgeted && options.budgetMs !== null && anyReady ? Date.now() + options.budgetMs : null;
      started = true;
      queue.push({ request, deadline, budgeted, resolve, reject });
      pump();
      if (deadline !== null && queue.length > 0) setTimeout(pump, Math.max(0, deadline - Date.now()) + 1).unref();
    });
  }

  // Threads start with the pool (a few hundred ms each), not with the first statement that needs one.
  pump();

  return {
    rows: (file, sql, params) => submit({ mode: 'rows', file, sql, params }, true) as Promise<unknown[][]>,
    value: (file, sql, params) => submit({ mode: 'value', file, sql, params }, true),
    exec: async (file, sql) => {
      await submit({ mode: 'exec', file, sql, params: {} }, false);
    },
    apply: async (file, batch) => (await submit({ mode: 'apply', file, sql: '', params: {}, batch }, false)) === true,
    forget: (file) => {
      for (const thread of [...live, ...draining]) thread.worker.postMessage({ forget: file });
    },
    available: () => failedStarts < MAX_FAILED_STARTS,
    stats: () => ({ live: live.size, abandoned, queued: queue.length }),
    close: async () => {
      closed = true;
      if (retire !== null) clearTimeout(retire);
      for (const task of queue.splice(0)) task.reject(new Error('view store is closed'));
      // A thread is not terminated inside a statement (see above): those still running one (a checkpoint or an index
      // build the store did not wait for, a read past its budget) get CLOSE_GRACE_MS to answer first. Terminating one
      // inside SQLite left worker.terminate() pending forever, and the closing process hanging with it. Threads still
      // starting are waited for too: one terminated while it ran its bundled script left terminate() pending with no
      // handle open, so a process closing its stores right after opening them saw its event loop end (openInfra test).
      const deadline = Date.now() + CLOSE_GRACE_MS;
      while ([...live, ...draining].some((t) => !t.ready || t.task !== null || t.cancelling || draining.has(t)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const threads = [...live, ...draining];
      live.clear();
      draining.clear();
      idle.length = 0;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
