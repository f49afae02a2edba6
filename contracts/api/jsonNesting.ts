import { AppError } from '../errors/appError.ts';

/** JSON nesting limit of every request body and GraphQL variables (operations.md §7). */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, in one pass without recursion (brackets inside
 * strings do not count). Text that is not JSON answers as far as it can be read; JSON.parse reports it afterwards.
 */
export function isJsonTextTooDeep(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Each level takes at least two characters.
  if (text.length <= limit * 2) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: the first one not preceded by an odd number of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        i = end;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** The BAD_REQUEST of a body or GraphQL variables nested deeper than the limit (errors.md §2). */
export function tooDeepJsonError(what = 'Request body'): AppError {
  return new AppError('BAD_REQUEST', `${what} is nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/**
 * JSON.parse for request input, with the nesting limit checked first so nothing deeper reaches recursive code.
 * Too deep → BAD_REQUEST (AppError); not JSON → the SyntaxError of JSON.parse, for the caller to word.
 */
export function parseRequestJson(text: string, what?: string): unknown {
  if (isJsonTextTooDeep(text)) throw tooDeepJsonError(what);
  return JSON.parse(text) as unknown;
}
