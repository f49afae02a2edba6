// Fails on a forbidden import between top-level folders (shared/STYLE.md "Layout and import rules"), on product code
// importing a test kit (a role's `testing/` folder), or on an import cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const roles = ['command-service', 'projection-worker', 'query-service'];
const scanned = ['contracts', ...roles, 'deploy'];
const builtins = new Set(['node_modules', '.tmp', 'dist']);

function listTs(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (builtins.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) listTs(full, out);
    else if (/\.(ts|mts|mjs)$/.test(entry.name)) out.push(full);
  }
  return out;
}

const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    if (specifier) specifiers.push(specifier);
  }
  return specifiers;
}

const topOf = (file: string): string => relative(root, file).split(sep)[0] ?? '';
const inTesting = (file: string): boolean => relative(root, file).split(sep).includes('testing');

function violation(from: string, to: string, isTest: boolean): string | null {
  const fromTop = topOf(from);
  const toTop = topOf(to);
  // Test kits (fakes, fixtures, spec helpers) serve tests only: product code never depends on them.
  if (inTesting(to) && !isTest && !inTesting(from)) return `product code imports a test kit (${relative(root, to)})`;
  if (fromTop === toTop) return null;
  // Tests beside the code may also use tests/ support code.
  if (isTest && toTop === 'tests') return null;
  if (fromTop === 'contracts') return 'contracts imports only itself';
  if (roles.includes(fromTop)) {
    if (toTop === 'contracts') return null;
    // Tests beside a role may also use other roles' public doors.
    if (isTest && roles.includes(toTop) && relative(root, to) === join(toTop, 'index.ts')) return null;
    return `a role imports only contracts and npm packages (${fromTop} -> ${toTop})`;
  }
  if (fromTop === 'deploy') {
    if (toTop === 'contracts') return null;
    if (roles.includes(toTop) && relative(root, to) === join(toTop, 'index.ts')) return null;
    return `deploy imports only each role's index.ts and contracts (${relative(root, to)})`;
  }
  return null;
}

test('no forbidden imports between top-level folders', () => {
  const problems: string[] = [];
  for (const top of scanned) {
    for (const file of listTs(join(root, top))) {
      const isTest = file.endsWith('.test.ts');
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        const problem = violation(file, target, isTest);
        if (problem) problems.push(`${relative(root, file)} imports ${specifier}: ${problem}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('no import cycles', () => {
  const graph = new Map<string, string[]>();
  for (const top of scanned) {
    for (const file of listTs(join(root, top))) {
      if (file.endsWith('.test.ts')) continue;
      const edges = importsOf(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => resolve(dirname(file), s));
      graph.set(file, edges);
    }
  }
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'visiting') {
        const cycle = stack.slice(stack.indexOf(next)).concat(next);
        cycles.push(cycle.map((f) => relative(root, f)).join(' -> '));
      } else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  assert.deepEqual(cycles, []);
});

test('the checker itself detects a forbidden edge', () => {
  const from = join(root, 'query-service', 'x.ts');
  assert.ok(violation(from, join(root, 'command-service', 'index.ts'), false));
  assert.ok(violation(join(root, 'contracts', 'a.ts'), join(root, 'deploy', 'b.ts'), false));
  assert.ok(violation(join(root, 'deploy', 'a.ts'), join(root, 'command-service', 'domain', 'x.ts'), false));
  assert.equal(violation(join(root, 'deploy', 'a.ts'), join(root, 'command-service', 'index.ts'), false), null);
  const kit = join(root, 'query-service', 'testing', 'kit.ts');
  assert.ok(violation(join(root, 'query-service', 'http', 'x.ts'), kit, false));
  assert.equal(violation(join(root, 'query-service', 'http', 'x.test.ts'), kit, true), null);
  assert.equal(violation(join(root, 'query-service', 'testing', 'other.ts'), kit, false), null);
});
