import { escapePointerSegment, parentPointer } from './jsonPointer.ts';

const WHITESPACE = ' \t\n\r';

/**
 * The character offset of every value in a JSON text, by JSON Pointer. Expects text that JSON.parse accepts; on
 * malformed input it returns what it found before the problem.
 */
export function jsonValueOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const skipWhitespace = (): void => {
    while (i < text.length && WHITESPACE.includes(text.charAt(i))) i++;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text.charAt(i) !== '"') i += text.charAt(i) === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const readValue = (pointer: string, depth: number): void => {
    if (depth > 200) throw new Error('too deep');
    skipWhitespace();
    offsets.set(pointer, i);
    const c = text.charAt(i);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      skipWhitespace();
      if (text.charAt(i) === close) {
        i++;
        return;
      }
      for (let index = 0; i < text.length; index++) {
        skipWhitespace();
        let segment = String(index);
        if (c === '{') {
          segment = readString();
          skipWhitespace();
          i++; // ':'
        }
        readValue(`${pointer}/${escapePointerSegment(segment)}`, depth + 1);
        skipWhitespace();
        const next = text.charAt(i);
        i++;
        if (next !== ',') return;
      }
    } else if (c === '"') {
      readString();
    } else {
      while (i < text.length && !',]} \t\n\r'.includes(text.charAt(i))) i++;
    }
  };
  try {
    readValue('', 0);
  } catch {
    // Malformed text: keep the offsets found so far.
  }
  return offsets;
}

export type TextLocation = { readonly offset: number; readonly line: number; readonly exact: boolean };

/** Where `pointer` (or its nearest existing ancestor) is in `text`, with a 1-based line number. */
export function locatePointer(text: string, pointer: string, offsets = jsonValueOffsets(text)): TextLocation | null {
  let current = pointer;
  for (;;) {
    const offset = offsets.get(current);
    if (offset !== undefined) {
      const line = text.slice(0, offset).split('\n').length;
      return { offset, line, exact: current === pointer };
    }
    if (current === '') return null;
    current = parentPointer(current);
  }
}
