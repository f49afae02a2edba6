// docs/reference/configuration.md from the config definitions: every variable deploy/config reads, its default
// (what loadConfig answers for an empty environment), what it accepts (the message loadConfig gives for a bad value)
// and the rules between variables; the meaning comes from the spec's tables.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { loadConfig } from '../../deploy/config/loadConfig.ts';
import { isConfigError } from '../../deploy/config/strataConfig.ts';
import { cell, generatedBanner, readRepoFile, repoRoot, table, tableRows } from './markdown.ts';

const CONFIG_DIR = 'deploy/config';
const READERS = new Set(['int', 'bool', 'oneOf', 'read', 'raw', 'exact']);
// A value no parser accepts: control characters are never part of a number, name, URL or list.
const JUNK = '\u0001junk';
// A secret production requires; shown as "required", never as a value.
const PRODUCTION_SECRET = 'x'.repeat(64);

interface Variable {
  readonly name: string;
  readonly file: string;
  /** The StrataConfig field the first read of the variable fills, when it fills one directly. */
  readonly field: string | undefined;
  /** The default as written, for reads whose result is not a config field. */
  readonly defaultText: string | undefined;
}

interface Rule {
  readonly variable: string;
  readonly message: string;
}

/** The name a read is stored under: `port: r.int(…)` or `const bodyLimitText = r.raw(…) ?? '10mb'`. */
function targetName(node: ts.Node): string | undefined {
  let current: ts.Node = node;
  while (ts.isBinaryExpression(current.parent) || ts.isParenthesizedExpression(current.parent)) current = current.parent;
  const parent = current.parent;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return undefined;
}

function scan(): { variables: Variable[]; rules: Rule[] } {
  const variables: Variable[] = [];
  const rules: Rule[] = [];
  const files = readdirSync(join(repoRoot, CONFIG_DIR))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort();
  for (const fileName of files) {
    const file = `${CONFIG_DIR}/${fileName}`;
    const source = ts.createSourceFile(file, readRepoFile(file), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const [first, second] = node.arguments;
        if (first !== undefined && ts.isStringLiteral(first) && /^[A-Z][A-Z0-9_]+$/.test(first.text)) {
          if (READERS.has(method) && !variables.some((v) => v.name === first.text)) {
            const fallback = ts.isBinaryExpression(node.parent) ? node.parent.right : node.arguments[method === 'oneOf' ? 2 : 1];
            variables.push({ name: first.text, file, field: targetName(node), defaultText: fallback?.getText(source) });
          }
          if (method === 'problem' && second !== undefined && ts.isStringLiteral(second)) {
            rules.push({ variable: first.text, message: second.text });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { variables, rules };
}

function render(value: unknown): string {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  if (Array.isArray(value)) return `\`${value.join(',')}\``;
  return `\`${String(value)}\``;
}

/** What loadConfig says a variable must be, when it refuses a value no parser accepts (null: it takes any text). */
function accepted(name: string): string | null {
  try {
    loadConfig({ [name]: JUNK });
    return null;
  } catch (err) {
    if (!isConfigError(err)) throw err;
    const problem = err.problems.find((p) => p.variable === name);
    return problem === undefined ? null : problem.message.replace(/^must be /, '');
  }
}

/** Meaning of each variable from the spec's tables (`| \`NAME\` | default | meaning |`), first file that has it. */
function specMeanings(): Map<string, { meaning: string; file: string }> {
  const meanings = new Map<string, { meaning: string; file: string }>();
  const files = [
    'operations.md',
    ...readdirSync(join(repoRoot, 'docs/spec'))
      .filter((f) => f !== 'operations.md')
      .sort(),
  ];
  for (const file of files) {
    for (const row of tableRows(readRepoFile(`docs/spec/${file}`))) {
      const name = /^`([A-Z][A-Z0-9_]+)`$/.exec(row[0] ?? '')?.[1];
      const meaning = row[row.length - 1];
      if (name !== undefined && meaning !== undefined && row.length >= 3 && !meanings.has(name)) {
        meanings.set(name, { meaning, file });
      }
    }
  }
  return meanings;
}

/** Names of every variable the configuration reads. */
export const configVariableNames = (): ReadonlySet<string> => new Set(scan().variables.map((v) => v.name));

export function renderConfigurationPage(): string {
  const { variables, rules } = scan();
  const development = loadConfig({}) as unknown as Record<string, unknown>;
  const production = loadConfig({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET }) as unknown as Record<string, unknown>;
  const meanings = specMeanings();
  const specOrder = [...meanings.keys()];
  const ordered = variables.toSorted((a, b) => {
    const rank = (v: Variable): number => (specOrder.includes(v.name) ? specOrder.indexOf(v.name) : specOrder.length);
    return rank(a) - rank(b);
  });
  const rows = ordered.map((v) => {
    let byDefault = v.defaultText === undefined ? 'unset' : `\`${v.defaultText.replace(/^'(.*)'$/, '$1')}\``;
    if (v.field !== undefined && v.field in development) {
      byDefault = render(development[v.field]);
      const inProduction = production[v.field] === PRODUCTION_SECRET ? '**required**' : render(production[v.field]);
      if (inProduction !== byDefault && v.name !== 'NODE_ENV') byDefault += ` (production: ${inProduction})`;
    }
    const spec = meanings.get(v.name);
    const meaning = spec === undefined ? '—' : `${spec.meaning} ([${spec.file}](../spec/${spec.file}))`;
    return [`<a id="${v.name.toLowerCase()}"></a>\`${v.name}\``, cell(byDefault), cell(accepted(v.name) ?? 'any text'), cell(meaning)];
  });
  const ruleLines = rules.map((r) => `- \`${r.variable}\` ${r.message}.`);
  return [
    generatedBanner(['deploy/config/ (loadConfig)', 'the variable tables of docs/spec/']),
    '',
    '# Configuration',
    '',
    'Every setting is an environment variable, read once at start by `deploy/config/loadConfig.ts`. A blank value',
    'counts as unset. An invalid value, a missing required one or a forbidden combination stops the process with exit',
    'code 1 and one message naming every bad variable (never a secret value). Booleans accept `true`, `false`, `1` and',
    '`0`. *Default* is what an empty environment gives (with `NODE_ENV=production` where that differs); *Accepts* is',
    "the code's own description of a valid value; *Meaning* is the spec's.",
    '',
    table(['Variable', 'Default', 'Accepts', 'Meaning'], rows),
    '',
    '## Rules between variables',
    '',
    ...ruleLines,
    '',
  ].join('\n');
}
