import type { Request } from 'express';
import { MAX_JSON_DEPTH, isJsonTextTooDeep } from '../../contracts/index.ts';

/** The query string of a request as parameters (express's own parser is not used: it builds nested objects). */
export function searchParamsOf(req: Request): URLSearchParams {
  const url = req.originalUrl;
  const question = url.indexOf('?');
  return new URLSearchParams(question === -1 ? '' : url.slice(question + 1));
}

/**
 * How a query-string parameter is read: `integer`, `number` and `boolean` parse when the text is one (otherwise the
 * text is kept, for the input checks to refuse), `json` is URL-encoded JSON, `commaList` a comma-separated list, and
 * `commaListOrJson` either (JSON when it starts with `[`).
 */
export type QueryParamKind = 'text' | 'integer' | 'number' | 'boolean' | 'json' | 'commaList' | 'commaListOrJson';

/** A parameter that could not be read: its name and why (`<name> must be given once`, ...). */
export type QueryParamError = { readonly name: string; readonly message: string };

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function decodeJson(name: string, text: string, values: Record<string, unknown>, errors: QueryParamError[]): void {
  if (isJsonTextTooDeep(text)) {
    errors.push({ name, message: `${name} is nested deeper than ${MAX_JSON_DEPTH} levels` });
    return;
  }
  try {
    values[name] = JSON.parse(text) as unknown;
  } catch {
    errors.push({ name, message: `${name} must be URL-encoded JSON` });
  }
}

/**
 * The query-string reader of the REST routes (the system API's and the generated endpoints'): the parameters
 * `names`, in that order, each read by its kind; a name without a kind (e.g. `api_key`) or absent from the query
 * string is not the route's and is left out. A repeated parameter and bad or too deeply nested JSON are errors, in
 * the order of `names`; the caller answers them in its surface's words.
 */
export function decodeQueryParams(
  params: URLSearchParams,
  names: Iterable<string>,
  kindOf: (name: string) => QueryParamKind | undefined,
): { readonly values: Record<string, unknown>; readonly errors: readonly QueryParamError[] } {
  const values: Record<string, unknown> = {};
  const errors: QueryParamError[] = [];
  for (const name of names) {
    const kind = kindOf(name);
    if (kind === undefined) continue;
    const given = params.getAll(name);
    if (given.length === 0) continue;
    if (given.length > 1) {
      errors.push({ name, message: `${name} must be given once` });
      continue;
    }
    const text = given[0] ?? '';
    switch (kind) {
      case 'integer':
        values[name] = INTEGER.test(text) ? Number(text) : text;
        break;
      case 'number':
        values[name] = NUMBER.test(text) ? Number(text) : text;
        break;
      case 'boolean':
        values[name] = text === 'true' || text === 'false' ? text === 'true' : text;
        break;
      case 'json':
        decodeJson(name, text, values, errors);
        break;
      case 'commaListOrJson':
        if (text.startsWith('[')) decodeJson(name, text, values, errors);
        else values[name] = text === '' ? [] : text.split(',');
        break;
      case 'commaList':
        values[name] = text === '' ? [] : text.split(',');
        break;
      default:
        values[name] = text;
    }
  }
  return { values, errors };
}
