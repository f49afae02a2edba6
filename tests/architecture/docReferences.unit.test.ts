// A fresh clone holds every document its code, README and docs cite, and the README stays short (issue 25): no reference leaves the repository,
// every cited `*.md` exists, `§` sections of the spec and `#anchors` into docs/ pages name a real heading, relative
// markdown links resolve, and the repository paths the docs name in backticks exist. How citations resolve is written
// in docs/README.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf } from '../../docs/tools/markdown.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const skippedDirs = new Set(['node_modules', '.git', '.tmp', 'data', 'dist', 'dist-graphiql']);
const scannedFile = /\.(ts|tsx|mts|mjs|cjs|js|md|ya?ml|conf|sh)$|^Dockerfile$|^run$/;
const specDir = 'docs/spec';
const bareNameDirs = [specDir, 'docs/reference'];
// Spelled in pieces so this file does not trip its own check.
const outsideRefs = [['..', 'shared'].join('/'), ['shared', 'spec'].join('/')];

function listFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    // Build outputs, data and scratch folders are not part of a clone; `.ci/run` is.
    if (skippedDirs.has(entry.name) || (entry.isDirectory() && entry.name.startsWith('.') && entry.name !== '.ci')) continue;
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) listFiles(path, out);
    else if (scannedFile.test(entry.name) && entry.name !== 'package-lock.json') out.push(path);
  }
  return out;
}

// This file's own examples and patterns are not citations.
const self = 'tests/architecture/docReferences.unit.test.ts';
const files = listFiles('').filter((file) => file !== self);
const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
const textOf = (file: string): string => texts.get(file) ?? readFileSync(join(root, file), 'utf8');

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;
const isFile = (path: string): boolean => existsSync(join(root, path)) && statSync(join(root, path)).isFile();

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/**
 * Where a cited `*.md` lives: a path from the repository root, a path relative to the citing file, or a bare name
 * of the spec (docs/spec/) or of a reference page (docs/reference/, lower-cased: `PERFORMANCE.md`). Null: nowhere.
 */
function resolveCitation(citing: string, cited: string): string | null {
  const fromDir = normalise(`${dirname(citing)}/${cited}`);
  if (!cited.startsWith('.') && isFile(normalise(cited))) return normalise(cited);
  if (isFile(fromDir)) return fromDir;
  if (!cited.includes('/')) {
    for (const dir of bareNameDirs) {
      for (const name of [cited, cited.toLowerCase()]) if (isFile(`${dir}/${name}`)) return `${dir}/${name}`;
    }
  }
  return null;
}

/** The numbered sections of a spec file (`## 6. CSRF…` → 6, `### 6.1 CSRF` → 6.1) and its headings' words. */
function sectionsOf(markdown: string): { numbers: Set<string>; titles: string[] } {
  const numbers = new Set<string>();
  const titles: string[] = [];
  for (const match of markdown.matchAll(/^#{1,6}\s+(?:(\d+(?:\.\d+)*)\.?\s+)?(.*)$/gm)) {
    if (match[1]) numbers.add(match[1]);
    titles.push((match[2] ?? '').toLowerCase());
  }
  return { numbers, titles };
}

interface Citation {
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly anchor: string | undefined;
  readonly sections: string | undefined;
}

// A `*.md` name in any text: `auth.md §3.2`, `docs/reference/errors.md#api_key_scope`, `[x](../guides/merge.md)`.
const mdCitation = /(?<![\w.@/-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w-]+\.md)(#[\w-]+)?(\s*\)?\s*§\s*[\w.§–-]+)?/g;

function citationsIn(file: string): Citation[] {
  const text = textOf(file);
  const found: Citation[] = [];
  for (const match of text.matchAll(mdCitation)) {
    const target = match[1];
    if (target === undefined) continue;
    found.push({
      file,
      line: lineOf(text, match.index),
      target,
      anchor: match[2]?.slice(1),
      sections: match[3]?.replace(/^[\s)]*§\s*/, ''),
    });
  }
  return found;
}

const citations = files.flatMap(citationsIn);
const where = (c: { file: string; line: number }): string => `${c.file}:${c.line}`;

test('nothing refers to a path outside the repository', () => {
  const bad: string[] = [];
  for (const file of files) {
    const text = textOf(file);
    for (const ref of outsideRefs) {
      let index = text.indexOf(ref);
      while (index >= 0) {
        bad.push(`${file}:${lineOf(text, index)} mentions ${ref}`);
        index = text.indexOf(ref, index + 1);
      }
    }
  }
  assert.deepEqual(bad, [], 'cite docs/spec/<file>.md or a page under docs/ instead');
});

test('every cited *.md exists in the repository', () => {
  const missing = citations.filter((c) => resolveCitation(c.file, c.target) === null).map((c) => `${where(c)} cites ${c.target}`);
  assert.deepEqual(missing, [], 'bare spec names resolve under docs/spec/, other bare names under docs/reference/');
});

test('every #anchor into a page under docs/ names one of its headings', () => {
  const bad: string[] = [];
  for (const c of citations) {
    if (c.anchor === undefined) continue;
    const page = resolveCitation(c.file, c.target);
    if (page === null || !page.startsWith('docs/')) continue;
    if (!anchorsOf(textOf(page)).has(c.anchor)) bad.push(`${where(c)} links ${page}#${c.anchor}`);
  }
  // Links within one page: `[errors](#error-codes)`.
  for (const file of files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))) {
    const text = textOf(file);
    const anchors = anchorsOf(text);
    for (const match of text.matchAll(/\]\(#([\w-]+)\)/g)) {
      if (match[1] !== undefined && !anchors.has(match[1])) bad.push(`${file}:${lineOf(text, match.index)} #${match[1]}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('every § section cited from the spec exists', () => {
  const bad: string[] = [];
  for (const c of citations) {
    if (c.sections === undefined) continue;
    const page = resolveCitation(c.file, c.target);
    if (page === null || !page.startsWith(`${specDir}/`)) continue;
    const { numbers, titles } = sectionsOf(textOf(page));
    // `§6.1`, `§1-§2`, `§1–§4`, `§Limits`: each named part must be a section number or a heading's first word.
    for (const part of c.sections.split(/[–-]§?|§/).map((p) => p.replace(/[.:]+$/, ''))) {
      if (part === '') continue;
      const ok = /^\d/.test(part) ? numbers.has(part) : titles.some((t) => t.startsWith(part.toLowerCase()));
      if (!ok) bad.push(`${where(c)} cites ${c.target} §${part}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('relative links in markdown resolve', () => {
  const bad: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.md'))) {
    const text = textOf(file);
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (/^(?:[a-z]+:|#|<)/i.test(target)) continue;
      const path = normalise(`${dirname(file)}/${target.split('#')[0] ?? ''}`);
      if (!existsSync(join(root, path))) bad.push(`${file}:${lineOf(text, match.index)} links ${target}`);
    }
  }
  assert.deepEqual(bad, []);
});

// The repository's top-level folders: a backticked `deploy/http/forwardWrites.ts` in the docs names a real file.
const topLevel = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !skippedDirs.has(e.name) && !e.name.startsWith('.'))
  .map((e) => e.name);
const repoPath = new RegExp(`\`((?:${topLevel.join('|')})/[\\w./-]*[\\w-])\``, 'g');

test('repository paths named in README.md and docs/ exist', () => {
  const pages = files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && !f.startsWith(`${specDir}/`)));
  assert.ok(pages.includes('docs/reference/architecture.md'), 'docs/reference/architecture.md is scanned');
  const bad: string[] = [];
  for (const file of pages.filter((f) => f.endsWith('.md'))) {
    const text = textOf(file);
    for (const match of text.matchAll(repoPath)) {
      const path = match[1] ?? '';
      // `{a,b}` alternatives and `*` globs name families of files.
      // Build outputs and data folders (admin-ui/dist, node_modules, .tmp) exist only after a build or a run.
      if (/[{*]/.test(path) || path.split('/').some((part) => skippedDirs.has(part))) continue;
      if (!existsSync(join(root, path.replace(/\/$/, '')))) bad.push(`${file}:${lineOf(text, match.index)} names ${path}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('README.md is a door, not a manual: at most 150 lines', () => {
  const lines = textOf('README.md').trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines; move the rest into docs/guides or docs/reference`);
});

test('the scan sees the code and the docs', () => {
  assert.ok(files.includes('README.md'));
  assert.ok(files.some((f) => f.startsWith('command-service/')));
  assert.ok(citations.length > 500, `only ${citations.length} citations found`);
  assert.equal(resolveCitation('query-service/x.ts', 'auth.md'), 'docs/spec/auth.md');
  assert.equal(resolveCitation('bench/x.ts', 'PERFORMANCE.md'), 'docs/reference/performance.md');
  assert.equal(resolveCitation('docs/guides/x.md', '../reference/style.md'), 'docs/reference/style.md');
  assert.equal(resolveCitation('x.ts', 'nowhere.md'), null);
  assert.ok(anchorsOf('## API_KEY_SCOPE\n### 6.1 CSRF, CORS\n').has('61-csrf-cors'));
  assert.ok(anchorsOf('## API_KEY_SCOPE\n').has('api_key_scope'));
});
