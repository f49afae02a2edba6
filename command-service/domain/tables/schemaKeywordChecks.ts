/**
 * Checks of the bound keywords and of `x-unique` / `x-index` (domain.md §5.1 rule 1, §5.5), for
 * validateTableSchema. Each reports `{path, message}` violations through `report`.
 */
type Node = Readonly<Record<string, unknown>>;
export type Report = (path: string, message: string) => void;

export const INDEX_KEYWORDS: readonly string[] = ['x-unique', 'x-index'];

const hasOwn = (node: Node, key: string): boolean => Object.prototype.hasOwnProperty.call(node, key);
const isSafeInteger = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
export const isLength = (value: unknown): boolean => isSafeInteger(value) && value >= 0;

/**
 * A pair of bounds (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`): each must pass `valid`,
 * and the lower one may not exceed the upper one.
 */
export function checkBounds(
  report: Report,
  node: Node,
  path: string,
  [low, high]: readonly [string, string],
  valid: (v: unknown) => boolean,
  what: string,
): void {
  let ok = true;
  for (const key of [low, high]) {
    if (hasOwn(node, key) && !valid(node[key])) {
      report(`${path}/${key}`, `must be ${what}`);
      ok = false;
    }
  }
  if (ok && hasOwn(node, low) && hasOwn(node, high) && (node[low] as number) > (node[high] as number)) {
    report(`${path}/${low}`, `must be at most "${high}" (${String(node[high])})`);
  }
}

/** A number or integer node: finite numbers, or safe integers (|n| ≤ 2^53 − 1), for its default and bounds. */
export function checkNumberNode(report: Report, node: Node, path: string, integer: boolean): void {
  const valid = integer ? isSafeInteger : isFiniteNumber;
  const what = integer ? 'a safe integer (at most 2^53 - 1 in magnitude)' : 'a finite number';
  checkBounds(report, node, path, ['minimum', 'maximum'], valid, what);
  if (hasOwn(node, 'default') && !valid(node.default)) report(`${path}/default`, `must be ${what}`);
}

/**
 * `x-unique` / `x-index`: booleans, only where `allowed` (a property node outside arrays; which kinds may carry them
 * is the key lists' business). True when the node is indexed, so the caller counts it against the table's limit.
 */
export function checkIndexKeywords(report: Report, node: Node, path: string, allowed: boolean): boolean {
  let indexed = false;
  for (const key of INDEX_KEYWORDS) {
    if (!hasOwn(node, key)) continue;
    if (typeof node[key] !== 'boolean') report(`${path}/${key}`, 'must be a boolean');
    else if (!allowed) report(`${path}/${key}`, `"${key}" is allowed only on properties outside arrays`);
    else if (node[key] === true) indexed = true;
  }
  return indexed;
}
