import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const register = fileURLToPath(new URL('./registerTs.mjs', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/namedClosures.ts', import.meta.url));

test('the strata executable compiles TypeScript without renaming wrappers and maps stack traces to the sources', () => {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', register, fixture], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const probe = JSON.parse(run.stdout) as { fast: boolean; name: string; stackLine: string };
  // tsx's keepNames would wrap `named` in __name(): a dictionary-mode function per call (docs/reference/hot-paths.md).
  assert.equal(probe.fast, true, 'a named closure keeps fast properties');
  assert.equal(probe.name, 'named');
  assert.match(probe.stackLine, /namedClosures\.ts:13:/, 'the stack trace points at the TypeScript line');
});

test('under tsx the same closure is renamed (the reason for the hooks)', () => {
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', fixture], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { fast: boolean }).fast, false);
});
