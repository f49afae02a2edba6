import pluralize from 'pluralize';

/** Word and case helpers of the generated-API naming algorithm (generated-api.md §2.1). */

/**
 * Maximal runs of `[A-Za-z0-9]`, each split before an uppercase letter following a lowercase letter or digit and
 * before the last uppercase letter of an uppercase run followed by a lowercase letter; lower-cased.
 */
export function splitWords(raw: string): string[] {
  const words: string[] = [];
  for (const run of raw.match(/[A-Za-z0-9]+/g) ?? []) {
    for (const part of run.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      if (part !== '') words.push(part.toLowerCase());
    }
  }
  return words;
}

export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Only the last word changes: `pluralize.singular`. */
export function singularWords(words: readonly string[]): string[] {
  const last = words.at(-1);
  return last === undefined ? [] : [...words.slice(0, -1), pluralize.singular(last)];
}

/** Only the last word changes: `pluralize.plural(pluralize.singular(w))`. */
export function pluralWords(words: readonly string[]): string[] {
  const last = words.at(-1);
  return last === undefined ? [] : [...words.slice(0, -1), pluralize.plural(pluralize.singular(last))];
}

export function pascal(words: readonly string[]): string {
  return words.map(upperFirst).join('');
}

export function camel(words: readonly string[]): string {
  const [first, ...rest] = words;
  return first === undefined ? '' : first + pascal(rest);
}

/** A GraphQL field name may not start with a digit. */
export function fieldSafe(name: string): string {
  return /^[0-9]/.test(name) ? `_${name}` : name;
}
