// Shared by build.mjs (the Admin UI) and graphiql/build.mjs: runs Vite quietly (warnings and errors only) with the
// vite.config.ts in `root`. Without vite installed it says `missing` on stderr and exits 0; without an index.html
// (sources not shipped) it does nothing. A failed build throws, so it fails the install.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export async function buildWithVite(root, missing) {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    process.stderr.write(`${missing}\n`);
    process.exit(0);
  }
  if (!existsSync(join(root, 'index.html'))) process.exit(0);
  await vite.build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}
