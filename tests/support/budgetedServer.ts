import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRows, type SeededTable } from './seedRows.ts';
import { startStrataProcess, until, type StrataProcess } from './strataProcess.ts';

/** A `strata serve` over a seeded table `items` with a small QUERY_TIMEOUT_MS, logged in as admin. */
export type BudgetedServer = {
  readonly server: StrataProcess;
  readonly seeded: SeededTable;
  readonly headers: Readonly<Record<string, string>>;
  /** `/api/revision/{draft}/table/items/rows` on the server. */
  readonly rowsUrl: string;
  /** `…/table/items/row/{id}`. */
  rowUrl(id: string): string;
  close(): Promise<void>;
};

/**
 * Seeds `rows` rows into a fresh data directory, starts the server with QUERY_TIMEOUT_MS = `budgetMs`, logs in, and
 * waits until the server projected every seeded row and lists answer (the first list starts the build of the default
 * order's index and runs without it meanwhile, which at a small budget may answer 503).
 */
export async function startBudgetedServer(options: {
  readonly name: string;
  readonly rows: number;
  readonly budgetMs: number;
}): Promise<BudgetedServer> {
  const adminPassword = `${options.name}-admin-password`;
  const dir = await mkdtemp(join(tmpdir(), `strata-${options.name}-`));
  const dataDir = join(dir, 'data');
  const seeded = await seedRows({ dataDir, adminPassword, projectName: 'big', rows: options.rows });
  const server = await startStrataProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD: adminPassword, QUERY_TIMEOUT_MS: String(options.budgetMs) });
  const close = async (): Promise<void> => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: adminPassword }),
    });
    assert.equal(login.status, 200);
    const headers = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
    const table = `${server.url}/api/revision/${seeded.draftRevisionId}/table/items`;
    await until('the first page of rows', 120_000, async () => {
      const first = await fetch(`${table}/rows?first=1`, { headers: { ...headers, 'x-strata-min-position': seeded.position ?? '' } });
      if (first.status === 200) return true;
      const body = (await first.json()) as { code?: string };
      assert.ok(first.status === 503 && (body.code === 'QUERY_TIMEOUT' || body.code === 'CONSISTENCY_TIMEOUT'), JSON.stringify(body));
      return undefined;
    });
    return { server, seeded, headers, rowsUrl: `${table}/rows`, rowUrl: (id) => `${table}/row/${id}`, close };
  } catch (err) {
    await close();
    throw err;
  }
}
