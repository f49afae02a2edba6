// Entry of a view store thread (sqliteReadPool.ts). Node 20 threads inherit neither the module hooks that let the
// main thread import `.ts` files (module.register, `--import tsx`) nor a way to ask for them, so the thread registers
// hooks itself: the modules named in workerData.preload (the composition root passes its own registration) before
// the TypeScript body; without them, tsx's when the body cannot be loaded as it is (tests and benches run under tsx).
import { workerData } from 'node:worker_threads';

const body = new URL('./sqliteReadThread.ts', import.meta.url).href;
const preload = workerData?.preload ?? [];
if (preload.length > 0) {
  for (const url of preload) await import(url);
  await import(body);
} else {
  try {
    await import(body);
  } catch (err) {
    if (err?.code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err;
    (await import('tsx/esm/api')).register();
    // The failed load stays in the module map under its URL: load the body again under another one.
    await import(`${body}?hooks`);
  }
}
