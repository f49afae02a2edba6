// Fails on a forbidden import between top-level folders (docs/reference/style.md "Layout and import rules"), on product code
// importing a test kit (a role's `testing/` folder), on an import against the layering inside a role or the Admin UI
// (each README's "Layout"), on a role door exporting more than is used outside the role, or on an import cycle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const roles = ['command-service', 'projection-worker', 'query-service'];
const scanned = ['contracts', ...roles, 'deploy', 'admin-ui'];
const builtins = new Set(['node_modules', '.tmp', 'dist', 'dist-graphiql']);

function listTs(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (builtins.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) listTs(full, out);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.push(full);
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

const isTestFile = (file: string): boolean => /\.test\.tsx?$/.test(file);
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
  if (fromTop === 'admin-ui') return 'the Admin UI talks to the public HTTP API only';
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

/**
 * The layers inside each role and the Admin UI, as their READMEs describe them: a layer imports itself and the
 * layers listed for it. A file is in the layer of its first folder, or of its first two inside a folder listed under
 * `nested` (`systemApi/rest`; a file directly in such a folder is in the folder's layer); files at the top of the
 * role are its composition (index.ts, create<Role>.ts: may import any layer) unless listed under `files`.
 * `testing/` may import any layer.
 */
type Layering = {
  readonly files: Readonly<Record<string, string>>;
  readonly nested?: readonly string[];
  readonly may: Readonly<Record<string, readonly string[]>>;
};

const layering: Readonly<Record<string, Layering>> = {
  'command-service': {
    files: { 'commandHandler.ts': 'kernel', 'ids.ts': 'kernel', 'authEventEnvelope.ts': 'kernel', 'authenticator.ts': 'authenticator' },
    may: {
      domain: [],
      kernel: [],
      state: [],
      audit: [],
      sessions: ['audit', 'kernel', 'state'],
      apiKeys: ['kernel'],
      oauth: ['kernel', 'sessions'],
      authenticator: ['oauth', 'sessions', 'state'],
      branches: ['domain', 'kernel'],
      handlers: ['audit', 'domain', 'kernel', 'sessions'],
      adapters: ['apiKeys', 'sessions'],
      webhooks: ['kernel'],
    },
  },
  'projection-worker': {
    files: {},
    nested: ['adapters'],
    may: {
      runner: [],
      projectors: ['runner'],
      webhooks: ['runner'],
      adapters: [],
      'adapters/sqlite': ['adapters'],
      'adapters/mongo': ['adapters'],
      'adapters/queue': [],
    },
  },
  'query-service': {
    files: {},
    nested: ['systemApi'],
    may: {
      paging: [],
      rows: ['paging'],
      readers: ['paging', 'rows'],
      changes: ['paging', 'readers'],
      merge: ['changes', 'readers'],
      'systemApi/operations': ['changes', 'paging', 'readers', 'rows'],
      http: ['systemApi/operations'],
      graphqlKit: ['http'],
      pages: ['http'],
      'systemApi/graphql': ['graphqlKit', 'http', 'pages', 'systemApi/operations'],
      'systemApi/rest': ['http', 'systemApi/graphql', 'systemApi/operations'],
      portability: ['http', 'paging', 'readers'],
      generatedApi: ['changes', 'graphqlKit', 'http', 'pages', 'paging', 'portability', 'readers', 'rows'],
      mcp: ['generatedApi', 'http', 'oauth', 'readers', 'systemApi/operations'],
      adapters: ['mcp'],
      oauth: ['http'],
      feed: ['changes', 'http', 'systemApi/operations'],
    },
  },
  'admin-ui': {
    files: {
      'src/app/App.tsx': 'shell',
      'src/app/Layout.tsx': 'shell',
      'src/app/Routes.tsx': 'shell',
      'src/main.tsx': 'shell',
      // The vite build shared by the Admin UI's and the GraphiQL bundle's build scripts and configs.
      'viteBuild.mjs': 'build',
      'viteStaticBuild.ts': 'build',
    },
    may: {
      'src/api': [],
      'src/lib': ['src/api'],
      'src/app': ['src/api', 'src/lib'],
      'src/components': ['src/api', 'src/app', 'src/lib'],
      'src/screens': ['src/api', 'src/app', 'src/components', 'src/lib'],
      build: [],
      graphiql: ['build'],
      // The generator of src/api/generated/operations.ts shares the batch placeholder with the client.
      codegen: ['src/api'],
    },
  },
};

const COMPOSITION = '(top)';

function layerOf(top: string, file: string): string {
  const inside = relative(join(root, top), file).split(sep).join('/');
  const rules = layering[top];
  if (!rules) return COMPOSITION;
  const named = rules.files[inside];
  if (named !== undefined) return named;
  const parts = inside.split('/');
  if (parts.length === 1) return COMPOSITION;
  if (parts[0] === 'src' && parts.length > 2) return `src/${parts[1]}`;
  if (parts[0] === 'src') return COMPOSITION;
  if (parts.length > 2 && rules.nested?.includes(parts[0] ?? '')) return `${parts[0]}/${parts[1]}`;
  return parts[0] ?? COMPOSITION;
}

function layerViolation(from: string, to: string): string | null {
  const top = topOf(from);
  const rules = layering[top];
  if (!rules || topOf(to) !== top) return null;
  const fromLayer = layerOf(top, from);
  const toLayer = layerOf(top, to);
  if (fromLayer === toLayer || fromLayer === COMPOSITION || fromLayer === 'shell' || fromLayer === 'testing') return null;
  const may = rules.may[fromLayer];
  if (may === undefined) return `${top}/${fromLayer} has no layer: add it to the README and to this test`;
  return may.includes(toLayer) ? null : `${top}: ${fromLayer} may not import ${toLayer}`;
}

test('no forbidden imports between top-level folders', () => {
  const problems: string[] = [];
  for (const top of scanned) {
    for (const file of listTs(join(root, top))) {
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = resolve(dirname(file), specifier);
        const problem = violation(file, target, isTestFile(file));
        if (problem) problems.push(`${relative(root, file)} imports ${specifier}: ${problem}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('layers inside each role and the Admin UI import only the layers beneath them', () => {
  const problems: string[] = [];
  for (const top of Object.keys(layering)) {
    for (const file of listTs(join(root, top))) {
      if (isTestFile(file)) continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const problem = layerViolation(file, resolve(dirname(file), specifier));
        if (problem) problems.push(`${relative(root, file)} imports ${specifier}: ${problem}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

const namedImports = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;

test("each role's index.ts exports only names that deploy, tests, bench or other roles' tests import", () => {
  const users = ['deploy', 'tests', 'bench', ...roles].flatMap((top) => listTs(join(root, top)));
  for (const role of roles) {
    const door = join(root, role, 'index.ts');
    const used = new Set<string>();
    for (const file of users) {
      if (topOf(file) === role) continue;
      for (const match of readFileSync(file, 'utf8').matchAll(namedImports)) {
        const specifier = match[2] ?? '';
        if (!specifier.startsWith('.') || resolve(dirname(file), specifier) !== door) continue;
        for (const name of (match[1] ?? '').split(','))
          used.add(
            name
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0] ?? '',
          );
      }
    }
    const exported = [...readFileSync(door, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((m) =>
      (m[1] ?? '')
        .split(',')
        .map((name) => name.trim().replace(/^type\s+/, ''))
        .filter(Boolean),
    );
    assert.deepEqual(
      exported.filter((name) => !used.has(name)),
      [],
      `${role}/index.ts exports names nobody outside uses`,
    );
  }
});

test('no import cycles', () => {
  const graph = new Map<string, string[]>();
  for (const top of scanned) {
    for (const file of listTs(join(root, top))) {
      if (isTestFile(file)) continue;
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
  assert.ok(violation(join(root, 'admin-ui', 'src', 'a.ts'), join(root, 'contracts', 'index.ts'), false));
  const kit = join(root, 'query-service', 'testing', 'kit.ts');
  assert.ok(violation(join(root, 'query-service', 'http', 'x.ts'), kit, false));
  assert.equal(violation(join(root, 'query-service', 'http', 'x.test.ts'), kit, true), null);
  assert.equal(violation(join(root, 'query-service', 'testing', 'other.ts'), kit, false), null);
});

test('the checker itself detects an edge against the layering', () => {
  const qs = (...parts: string[]) => join(root, 'query-service', ...parts);
  assert.ok(layerViolation(qs('readers', 'a.ts'), qs('graphqlKit', 'b.ts')));
  assert.ok(layerViolation(qs('newFolder', 'a.ts'), qs('http', 'b.ts')));
  assert.equal(layerViolation(qs('graphqlKit', 'a.ts'), qs('http', 'b.ts')), null);
  assert.equal(layerViolation(qs('createQueryService.ts'), qs('mcp', 'b.ts')), null);
  assert.ok(layerViolation(qs('systemApi', 'operations', 'a.ts'), qs('systemApi', 'graphql', 'b.ts')));
  assert.ok(layerViolation(qs('generatedApi', 'serve', 'a.ts'), qs('systemApi', 'rest', 'b.ts')));
  assert.ok(layerViolation(qs('graphqlKit', 'a.ts'), qs('generatedApi', 'graphql', 'b.ts')));
  assert.ok(layerViolation(qs('mcp', 'a.ts'), qs('adapters', 'b.ts')));
  assert.ok(layerViolation(qs('systemApi', 'newFolder', 'a.ts'), qs('http', 'b.ts')));
  assert.equal(layerViolation(qs('systemApi', 'rest', 'a.ts'), qs('systemApi', 'graphql', 'b.ts')), null);
  assert.equal(layerViolation(qs('generatedApi', 'serve', 'a.ts'), qs('graphqlKit', 'b.ts')), null);
  const cs = (...parts: string[]) => join(root, 'command-service', ...parts);
  assert.ok(layerViolation(cs('domain', 'a.ts'), cs('commandHandler.ts')));
  assert.equal(layerViolation(cs('sessions', 'a.ts'), cs('commandHandler.ts')), null);
  assert.ok(layerViolation(cs('sessions', 'a.ts'), cs('oauth', 'b.ts')));
  assert.ok(layerViolation(cs('oauth', 'a.ts'), cs('authenticator.ts')));
  assert.ok(layerViolation(cs('apiKeys', 'a.ts'), cs('sessions', 'b.ts')));
  assert.equal(layerViolation(cs('authenticator.ts'), cs('oauth', 'b.ts')), null);
  const pw = (...parts: string[]) => join(root, 'projection-worker', ...parts);
  assert.ok(layerViolation(pw('adapters', 'sqlite', 'a.ts'), pw('adapters', 'mongo', 'b.ts')));
  assert.ok(layerViolation(pw('adapters', 'viewCollectionSpec.ts'), pw('adapters', 'sqlite', 'b.ts')));
  assert.equal(layerViolation(pw('adapters', 'mongo', 'a.ts'), pw('adapters', 'viewCollectionSpec.ts')), null);
  const ui = (...parts: string[]) => join(root, 'admin-ui', 'src', ...parts);
  assert.ok(layerViolation(ui('screens', 'A.tsx'), ui('app', 'Routes.tsx')));
  assert.equal(layerViolation(ui('app', 'Routes.tsx'), ui('screens', 'A.tsx')), null);
});
