// References to test files by an old name (before the file carried its kind, or carried another kind), found from the
// test files as they are now and rewritten in place. Pure (no I/O); tests/fixTestReferences.ts applies it to the tree.
import { kindOf } from './testKinds.ts';

export type Rename = { readonly from: string; readonly to: string };

/** Renames no rule can derive: the file also changed its base name. */
export const EXPLICIT_RENAMES: readonly Rename[] = [{ from: 'tests/chaos/chaos.test.ts', to: 'tests/chaos/shortRun.chaos.test.ts' }];

const KINDS = ['unit', 'contract', 'int', 'e2e', 'ui', 'chaos'] as const;

/**
 * For each kinded test file `dir/base.kind.test.ts`, the names it may have had: `dir/base.test.ts` and
 * `dir/base.<other kind>.test.ts`, each only when no file by that name exists now.
 */
export function impliedRenames(testFiles: readonly string[]): Rename[] {
  const existing = new Set(testFiles);
  const renames: Rename[] = [...EXPLICIT_RENAMES.filter((rename) => !existing.has(rename.from) && existing.has(rename.to))];
  for (const file of testFiles) {
    const kind = kindOf(file);
    if (kind === null) continue;
    if (!file.endsWith(`.${kind}.test.ts`)) continue;
    const stem = file.slice(0, file.length - `.${kind}.test.ts`.length);
    for (const old of [`${stem}.test.ts`, ...KINDS.filter((other) => other !== kind).map((other) => `${stem}.${other}.test.ts`)]) {
      if (!existing.has(old)) renames.push({ from: old, to: file });
    }
  }
  return renames;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * Rewrites every reference to an old name: the whole path (also after `./` or `../`), or the bare file name when no
 * other rename or existing test file shares it (a bare name is how comments next to a test cite it). A bare name
 * preceded by a letter, digit, `_`, `.`, `/` or `-` is part of another name or path and is left alone.
 */
export function rewriteReferences(text: string, renames: readonly Rename[], testFiles: readonly string[]): { text: string; count: number } {
  const bareOwners = new Map<string, number>();
  for (const name of [...renames.map((rename) => basename(rename.from)), ...testFiles.map(basename)]) {
    bareOwners.set(name, (bareOwners.get(name) ?? 0) + 1);
  }
  let count = 0;
  let out = text;
  for (const { from, to } of renames) {
    if (!out.includes(basename(from))) continue;
    const full = new RegExp(`(^|[^A-Za-z0-9_-])${escape(from)}(?![A-Za-z0-9_])`, 'g');
    out = out.replace(full, (_, before: string) => {
      count += 1;
      return `${before}${to}`;
    });
    if (bareOwners.get(basename(from)) !== 1) continue;
    const bare = new RegExp(`(^|[^A-Za-z0-9_./-])${escape(basename(from))}(?![A-Za-z0-9_])`, 'g');
    out = out.replace(bare, (_, before: string) => {
      count += 1;
      return `${before}${basename(to)}`;
    });
  }
  return { text: out, count };
}
