import type { ConfigProblem } from './strataConfig.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** Outcome of parsing one value: the value, or a description of what was expected (never the value itself). */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly expected: string };

export const parsed = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const rejected = (expected: string): Parsed<never> => ({ ok: false, expected });

export type EnvReader = {
  readonly problems: ConfigProblem[];
  /** Trimmed value, undefined when unset or blank (compose files often write `VAR=`). */
  raw(name: string): string | undefined;
  /** Untrimmed value (secrets are used exactly as given), undefined when unset or blank. */
  exact(name: string): string | undefined;
  problem(variable: string, message: string): void;
  /** Parses a set variable with `parse`; unset or invalid → `fallback` (an invalid value is recorded as a problem). */
  read<T>(name: string, fallback: T, parse: (text: string) => Parsed<T>): T;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T;
};

/** Collects every problem instead of stopping at the first, so one startup error lists them all. */
export function createEnvReader(env: Env): EnvReader {
  const problems: ConfigProblem[] = [];
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const problem = (variable: string, message: string): void => {
    problems.push({ variable, message });
  };
  const read = <T>(name: string, fallback: T, parse: (text: string) => Parsed<T>): T => {
    const text = raw(name);
    if (text === undefined) return fallback;
    const result = parse(text);
    if (result.ok) return result.value;
    problem(name, `must be ${result.expected}`);
    return fallback;
  };
  return {
    problems,
    raw,
    exact: (name) => (raw(name) === undefined ? undefined : env[name]),
    problem,
    read,
    int: (name, fallback, min, max) => read(name, fallback, (text) => parseInteger(text, min, max)),
    bool: (name, fallback) => read(name, fallback, parseBoolean),
    oneOf: (name, values, fallback) => read(name, fallback, (text) => parseOneOf(text, values)),
  };
}

export function parseInteger(text: string, min: number, max: number): Parsed<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer between ${min} and ${max}`;
  if (!/^-?\d+$/.test(text)) return rejected(range);
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) return rejected(range);
  return parsed(value);
}

export function parseBoolean(text: string): Parsed<boolean> {
  switch (text.toLowerCase()) {
    case 'true':
    case '1':
      return parsed(true);
    case 'false':
    case '0':
      return parsed(false);
    default:
      return rejected('true, false, 1 or 0');
  }
}

export function parseOneOf<T extends string>(text: string, values: readonly T[]): Parsed<T> {
  const lower = text.toLowerCase();
  const match = values.find((v) => v === lower);
  return match === undefined ? rejected(`one of ${values.join(', ')}`) : parsed(match);
}
