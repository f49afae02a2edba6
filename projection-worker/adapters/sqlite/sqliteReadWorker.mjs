// Entry of a view store thread (sqliteReadPool.ts) when the composition root did not hand the pool the thread's body
// bundled as one script (SqliteThreadsOptions.source). Node 20 threads do not inherit the module hooks that let the
// main thread import `.ts` files (`--import tsx`), so the thread loads its TypeScript body as it is if it can, else
// with tsx's hooks (tests and benches run under tsx).
const body = new URL('./sqliteReadThread.ts', import.meta.url).href;
try {
  await import(body);
} catch (err) {
  if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
  (await import('tsx/esm/api')).register();
  // The failed load stays in the module map under its URL: load the body again under another one.
  await import(`${body}?hooks`);
}
