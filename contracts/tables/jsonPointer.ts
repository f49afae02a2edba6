/** RFC 6901 JSON Pointers, used for error detail paths and patch operations. */

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `['a', 'b/c', 0]` -> `/a/b~1c/0`; `[]` -> `""` (the whole document). */
export function toJsonPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) out += `/${escapePointerToken(segment)}`;
  return out;
}

/** `/a/b~1c` -> `['a', 'b/c']`; null when the text is not a JSON Pointer (bad start or a bad `~` escape). */
export function parseJsonPointer(pointer: string): string[] | null {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return null;
  const tokens = pointer.slice(1).split('/');
  const out: string[] = [];
  for (const token of tokens) {
    if (/~(?![01])/.test(token)) return null;
    out.push(token.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return out;
}
