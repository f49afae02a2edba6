import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { freePort } from '../../support/freePort.ts';
import { checkScreen, type ScreenCheckOptions } from './screenChecks.ts';

export const CHROMIUM = '/usr/bin/chromium';
const root = fileURLToPath(new URL('../../..', import.meta.url));
export const SCREENSHOTS = join(root, 'tests', '.tmp', 'screenshots');

/** Fails with the fix when Debian's Chromium is missing (CI installs it in .ci/run; tests never download browsers). */
export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's package (sudo apt-get install chromium); .ci/run installs it in CI`);
  }
}

/** The built Admin UI; builds it when `npm install` did not (e.g. --ignore-scripts). */
export function ensureAdminUiBuilt(): void {
  if (existsSync(join(root, 'admin-ui', 'dist', 'index.html'))) return;
  const built = spawnSync(process.execPath, [join(root, 'admin-ui', 'build.mjs')], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`admin-ui build failed:\n${built.stderr}`);
}

export type Server = { readonly url: string; readonly output: () => string; stop(): Promise<void> };

/** `strata serve` on a free port with an empty DATA_DIR (admin/admin is created on first start). */
export async function startServer(env: Record<string, string>): Promise<Server> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strata-admin-ui-e2e-'));
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(root, 'deploy', 'bin', 'strata.mjs'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dataDir,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(force);
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`strata serve exited early:\n${output}`);
    const ready = await fetch(`${url}/health/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`strata serve did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, output: () => output, stop };
}

export type Session = {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors, page errors and requests to other origins seen so far (each test asserts none). */
  readonly problems: string[];
  /**
   * Saves a full-page screenshot of the current screen as tests/.tmp/screenshots/[folder/]NN-name.png, then checks
   * the screen at 1280×800 and 390×844 (`checkScreen`: axe-core, overflow, unique control names) and fails on a
   * problem.
   */
  shot(name: string, options?: ScreenCheckOptions): Promise<void>;
};

/**
 * Headless Debian Chromium (playwright-core, no downloaded browser) with the flags this machine needs. Requests
 * to any other origin are recorded and aborted, so the UI is proven to need nothing beyond the server. A suite
 * with its own `folder` keeps its screenshots apart from the other suites' (each suite clears only its own files,
 * so suites running at the same time keep each other's).
 */
export async function openBrowser(origin: string, folder = ''): Promise<Session> {
  const screenshots = join(SCREENSHOTS, folder);
  await mkdir(screenshots, { recursive: true });
  for (const entry of await readdir(screenshots, { withFileTypes: true })) {
    if (entry.isFile()) await rm(join(screenshots, entry.name), { force: true });
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: origin });
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const target = route.request().url();
    if (new URL(target).origin === origin) return route.continue();
    problems.push(`request to another origin: ${target}`);
    return route.abort();
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  let count = 0;
  return {
    browser,
    context,
    page,
    problems,
    async shot(name, options) {
      count += 1;
      await page.screenshot({ path: join(screenshots, `${String(count).padStart(2, '0')}-${name}.png`), fullPage: true });
      await checkScreen(page, folder === '' ? name : `${folder}/${name}`, options);
    },
  };
}
