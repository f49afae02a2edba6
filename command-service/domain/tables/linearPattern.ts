import { RE2JS } from 're2js';

/** A compiled schema `pattern`: `test` searches like `RegExp.prototype.test`, in time linear in the input. */
export type LinearPattern = { readonly test: (value: string) => boolean };

export type LinearPatternResult = { readonly ok: true; readonly pattern: LinearPattern } | { readonly ok: false; readonly message: string };

const ANY = '\\x{0}-\\x{10FFFF}';

/**
 * ECMAScript `\s` (WhiteSpace and LineTerminator) as class ranges, taken from the running engine so that RE2,
 * whose `\s` is ASCII only, matches exactly what the same pattern would match in JavaScript.
 */
function whitespaceRanges(): { readonly space: string; readonly nonSpace: string } {
  const space: [number, number][] = [];
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (!/\s/u.test(String.fromCharCode(cp))) continue;
    const last = space[space.length - 1];
    if (last !== undefined && last[1] === cp - 1) last[1] = cp;
    else space.push([cp, cp]);
  }
  const nonSpace: [number, number][] = [];
  let next = 0;
  for (const [from, to] of space) {
    if (from > next) nonSpace.push([next, from - 1]);
    next = to + 1;
  }
  nonSpace.push([next, 0x10ffff]);
  const text = (ranges: [number, number][]): string => ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
  return { space: text(space), nonSpace: text(nonSpace) };
}

const hex = (cp: number): string => `\\x{${cp.toString(16)}}`;
const WS = whitespaceRanges();
const isHex = (text: string): boolean => /^[0-9A-Fa-f]+$/.test(text);

class Unsupported extends Error {}

type Escape = { readonly text: string; readonly length: number };

/** `\u` escapes of u-mode: `\u{…}`, `\uXXXX`, and a `\uD83D\uDE00` surrogate pair as one code point. */
function unicodeEscape(source: string, at: number): Escape {
  if (source[at + 2] === '{') {
    const end = source.indexOf('}', at + 3);
    return { text: `\\x{${source.slice(at + 3, end)}}`, length: end + 1 - at };
  }
  const unit = parseInt(source.slice(at + 2, at + 6), 16);
  const low = source.slice(at + 8, at + 12);
  if (unit >= 0xd800 && unit <= 0xdbff && source.startsWith('\\u', at + 6) && low.length === 4 && isHex(low)) {
    const lowUnit = parseInt(low, 16);
    if (lowUnit >= 0xdc00 && lowUnit <= 0xdfff) {
      return { text: hex((unit - 0xd800) * 0x400 + (lowUnit - 0xdc00) + 0x10000), length: 12 };
    }
  }
  return { text: hex(unit), length: 6 };
}

/** One escape at `source[at] === '\\'` of a pattern V8 accepted with the `u` flag, in RE2 syntax. */
function escape(source: string, at: number, inClass: boolean): Escape {
  const c = source[at + 1] ?? '';
  switch (c) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'r':
    case 'f':
    case 'v':
      return { text: `\\${c}`, length: 2 };
    case 'b':
    case 'B':
      // Inside a class ECMAScript's `\b` is a backspace.
      return { text: inClass ? hex(8) : `\\${c}`, length: 2 };
    case 's':
      return { text: inClass ? WS.space : `[${WS.space}]`, length: 2 };
    case 'S':
      return { text: inClass ? WS.nonSpace : `[^${WS.space}]`, length: 2 };
    case '0':
      return { text: hex(0), length: 2 };
    case 'c':
      return { text: hex((source.charCodeAt(at + 2) ?? 0) % 32), length: 3 };
    case 'x':
      return { text: `\\x{${source.slice(at + 2, at + 4)}}`, length: 4 };
    case 'u':
      return unicodeEscape(source, at);
    case 'p':
    case 'P': {
      const end = source.indexOf('}', at + 3);
      return { text: source.slice(at, end + 1), length: end + 1 - at };
    }
    case 'k':
      throw new Unsupported('backreferences are not supported');
    default:
      if (c >= '1' && c <= '9') throw new Unsupported('backreferences are not supported');
      // u-mode leaves only syntax characters (and `-` in a class) as identity escapes; RE2 takes them as they are.
      return { text: `\\${c}`, length: 2 };
  }
}

/** A character class starting at `source[at] === '['`; `[]` and `[^]` mean "nothing" and "anything" in ECMAScript. */
function characterClass(source: string, at: number): Escape {
  let i = at + 1;
  const negated = source[i] === '^';
  if (negated) i++;
  if (source[i] === ']') return { text: negated ? `[${ANY}]` : `[^${ANY}]`, length: i + 1 - at };
  let out = negated ? '[^' : '[';
  while (i < source.length && source[i] !== ']') {
    const c = source[i] ?? '';
    if (c === '\\') {
      const e = escape(source, i, true);
      out += e.text;
      i += e.length;
    } else {
      // A literal `[` is escaped so RE2 does not read `[:alpha:]` as a POSIX class.
      out += c === '[' ? '\\[' : c;
      i += c.length;
    }
  }
  return { text: `${out}]`, length: i + 1 - at };
}

/** A group opener at `source[at] === '('`. */
function group(source: string, at: number): Escape {
  if (source[at + 1] !== '?') return { text: '(', length: 1 };
  const kind = source[at + 2];
  if (kind === ':') return { text: '(?:', length: 3 };
  if (kind === '<' && source[at + 3] !== '=' && source[at + 3] !== '!') return { text: '(?P<', length: 3 };
  if (kind === '=' || kind === '!' || kind === '<') throw new Unsupported('lookahead and lookbehind are not supported');
  throw new Unsupported('only (?:…) and named groups are supported');
}

/** Rewrites an ECMAScript (u flag) pattern into RE2 syntax with the same meaning. */
function toRe2Syntax(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i] ?? '';
    let step: Escape;
    if (c === '\\') step = escape(source, i, false);
    else if (c === '[') step = characterClass(source, i);
    else if (c === '(') step = group(source, i);
    // ECMAScript's `.` excludes every line terminator, RE2's only `\n`.
    else if (c === '.') step = { text: '[^\\n\\r\\x{2028}\\x{2029}]', length: 1 };
    else step = { text: c, length: 1 };
    out += step.text;
    i += step.length;
  }
  return out === '' ? '(?:)' : out;
}

/**
 * Compiles a table-schema `pattern` (ECMAScript syntax, u flag; domain.md §5.1) for a linear-time engine (RE2
 * semantics, no backtracking), or says why it is outside that subset. Matching gives the same answer as
 * `new RegExp(source, 'u').test(value)` for every pattern this accepts.
 */
export function compileLinearPattern(source: string): LinearPatternResult {
  try {
    new RegExp(source, 'u');
  } catch {
    return { ok: false, message: 'must be a valid regular expression (ECMAScript, u flag)' };
  }
  try {
    const compiled = RE2JS.compile(toRe2Syntax(source));
    return { ok: true, pattern: { test: (value) => compiled.test(value) } };
  } catch (err) {
    const why = err instanceof Unsupported ? err.message : String((err as Error).message).replace(/^error parsing regexp: /, '');
    return { ok: false, message: `must be in the linear-time (RE2) subset of regular expressions: ${why}` };
  }
}

/**
 * ajv's `code.regExp` engine: schema patterns compile to linear-time matchers (the schema was checked before).
 * ajv keys compiled patterns by `toString()`, so each matcher names its source.
 */
export function linearRegExpEngine(source: string): LinearPattern & { toString(): string } {
  const result = compileLinearPattern(source);
  if (!result.ok) throw new Error(`pattern ${result.message}`);
  const { test } = result.pattern;
  return { test, toString: () => `/${source}/u` };
}
linearRegExpEngine.code = 'linearRegExpEngine';
