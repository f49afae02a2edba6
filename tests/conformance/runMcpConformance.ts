// `npm run conformance:mcp`: runs scenarios of the MCP conformance suite against a freshly started `strata serve`
// (free port, temporary DATA_DIR) and exits non-zero when any scenario fails. The suite needs Node 22, which
// `npx -p node@22` fetches from the npm registry without changing the project's engine; its version is pinned.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStrataProcess } from '../support/strataProcess.ts';

const CONFORMANCE_PACKAGE = '@modelcontextprotocol/conformance@0.1.16';
const SCENARIOS = ['dns-rebinding-protection', 'server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams'];

function runScenario(url: string, scenario: string): Promise<number> {
  const args = ['--yes', '-p', 'node@22', '-p', CONFORMANCE_PACKAGE, 'conformance', 'server', '--url', url, '--scenario', scenario];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { stdio: 'inherit', env: { ...process.env, npm_config_update_notifier: 'false' } });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

const dataDir = await mkdtemp(join(tmpdir(), 'strata-mcp-conformance-'));
const server = await startStrataProcess({ DATA_DIR: dataDir });
const failed: string[] = [];
try {
  // The suite's DNS-rebinding scenario expects a server addressed as localhost.
  const url = `http://localhost:${new URL(server.url).port}/mcp`;
  for (const scenario of SCENARIOS) {
    process.stdout.write(`\n=== ${scenario} (${url})\n`);
    if ((await runScenario(url, scenario)) !== 0) failed.push(scenario);
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
if (failed.length > 0) {
  process.stderr.write(`\nMCP conformance failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`\nMCP conformance passed: ${SCENARIOS.join(', ')}\n`);
