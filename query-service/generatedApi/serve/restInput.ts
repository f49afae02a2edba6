import type { Request } from 'express';
import { isPlainObject } from '../../../contracts/index.ts';
import { decodeQueryParams, searchParamsOf, type QueryParamKind } from '../../http/queryParams.ts';
import { badInput, type InputPath } from '../../rows/rowQueryError.ts';
import type { RowChangeKind } from '../../changes/rowPairing.ts';
import type { RowQueryInput } from '../../rows/rowQuery.ts';
import type { GeneratedPatchInput, GeneratedPatchOperation, GeneratedRowInput } from '../graphql/generatedDataSource.ts';

/**
 * Shape checks of generated REST inputs (generated-api.md §7): types and unknown or missing fields are
 * BAD_USER_INPUT with a JSON Pointer into the body. Row data, patch operations, bulk sizes and id syntax are the
 * command side's to validate (INVALID_DATA, INVALID_PATCH, INVALID_ROW_ID, ...).
 */

type FieldCheck = 'string' | 'array' | 'any';

function objectOf(value: unknown, at: InputPath, fields: Readonly<Record<string, FieldCheck>>, required: boolean): Record<string, unknown> {
  if (value === undefined && !required) return {};
  if (!isPlainObject(value)) throw badInput(at, at.length === 0 ? 'the body must be a JSON object' : 'must be an object');
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(fields, key)) throw badInput([...at, key], `unknown field "${key}"`);
  }
  for (const [key, check] of Object.entries(fields)) {
    const member = value[key];
    if (member === undefined || member === null) {
      if (required) throw badInput([...at, key], `${key} is required`);
      continue;
    }
    if (check === 'string' && typeof member !== 'string') throw badInput([...at, key], `${key} must be a string`);
    if (check === 'array' && !Array.isArray(member)) throw badInput([...at, key], `${key} must be an array`);
  }
  return value;
}

function listOf<T>(body: unknown, key: string, item: (value: unknown, at: InputPath) => T): T[] {
  const record = objectOf(body, [], { [key]: 'array' }, true);
  return (record[key] as unknown[]).map((value, i) => item(value, [key, i]));
}

const rowFields = { id: 'string', data: 'any' } as const;
const patchFields = { id: 'string', patches: 'array' } as const;

function rowInput(value: unknown, at: InputPath): GeneratedRowInput {
  const row = objectOf(value, at, rowFields, true);
  return { id: row.id as string, data: row.data };
}

function patchInput(value: unknown, at: InputPath): GeneratedPatchInput {
  const row = objectOf(value, at, patchFields, true);
  return { id: row.id as string, patches: row.patches as GeneratedPatchOperation[] };
}

export const restInput = {
  /** `POST rows`: `{id, data}`. */
  create: (body: unknown): GeneratedRowInput => rowInput(body, []),
  /** `PUT rows/{rowId}`: `{data}` (a full replace). */
  update: (body: unknown, rowId: string): GeneratedRowInput => ({ id: rowId, data: objectOf(body, [], { data: 'any' }, true).data }),
  /** `PATCH rows/{rowId}`: `{patches}`. */
  patch: (body: unknown, rowId: string): GeneratedPatchInput => ({
    id: rowId,
    patches: objectOf(body, [], { patches: 'array' }, true).patches as GeneratedPatchOperation[],
  }),
  bulkRows: (body: unknown): GeneratedRowInput[] => listOf(body, 'rows', rowInput),
  bulkPatches: (body: unknown): GeneratedPatchInput[] => listOf(body, 'rows', patchInput),
  bulkIds: (body: unknown): string[] =>
    listOf(body, 'ids', (value, at) => {
      if (typeof value !== 'string') throw badInput(at, 'must be a string');
      return value;
    }),
  /** `POST rows/query`: an optional `{first?, after?, where?, orderBy?}` (checked further by the row query grammar). */
  query: (body: unknown): RowQueryInput => objectOf(body, [], { first: 'any', after: 'any', where: 'any', orderBy: 'any' }, false),
};

/** The first query-string error of a generated REST route, as BAD_USER_INPUT with a JSON Pointer to the parameter. */
function decodeOrThrow(req: Request, kinds: Readonly<Record<string, QueryParamKind>>): Record<string, unknown> {
  const { values, errors } = decodeQueryParams(searchParamsOf(req), Object.keys(kinds), (name) => kinds[name]);
  const first = errors[0];
  if (first !== undefined) throw badInput([first.name], first.message);
  return values;
}

const LIST_QUERY: Readonly<Record<string, QueryParamKind>> = { first: 'integer', after: 'text', where: 'json', orderBy: 'json' };

/**
 * `GET rows?first&after&where&orderBy`: `first` an integer, `where`/`orderBy` URL-encoded JSON; other parameters
 * (e.g. `api_key`) are not the list's; a repeated one is refused.
 */
export function listQueryOf(req: Request): RowQueryInput {
  return decodeOrThrow(req, LIST_QUERY);
}

const ROW_CHANGE_KINDS: readonly string[] = ['ADDED', 'UPDATED', 'REMOVED', 'RENAMED'];
const CHANGES_QUERY: Readonly<Record<string, QueryParamKind>> = { since: 'text', first: 'integer', after: 'text', changes: 'commaList' };

/**
 * `GET changes?since&first&after&changes` and `GET changes/tables?since` (changes.md §3): `changes` a comma list
 * of ADDED, UPDATED, REMOVED, RENAMED; other parameters are not the route's; a repeated one is refused.
 */
export function changesQueryOf(req: Request): { since?: string; first?: unknown; after?: string; changes?: RowChangeKind[] } {
  const out = decodeOrThrow(req, CHANGES_QUERY);
  const kinds = out.changes as string[] | undefined;
  if (kinds?.some((kind) => !ROW_CHANGE_KINDS.includes(kind))) throw badInput(['changes'], `changes must list ${ROW_CHANGE_KINDS.join(', ')}`);
  return out as { since?: string; first?: unknown; after?: string; changes?: RowChangeKind[] };
}
