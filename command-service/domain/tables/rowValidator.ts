import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AppError, createBoundedCache, escapePointerToken, estimateBytes, isPlainObject } from '../../../contracts/index.ts';
import { createFormatCheckers } from './formatCheckers.ts';
import { jsonHash } from './jsonHash.ts';
import { linearRegExpEngine } from './linearPattern.ts';

export type RowValidationContext = {
  readonly tableId: string;
  readonly rowId: string;
  /** Position of the row in a bulk request; added to every detail. */
  readonly index?: number;
  /** Add `rowId` to every detail (bulk writes, migrations). Default: when `index` is given. */
  readonly rowIdInDetails?: boolean;
};

export type RowValidationDetail = {
  readonly path: string;
  readonly message: string;
  readonly keyword: string;
  readonly rowId?: string;
  readonly index?: number;
};

export type RowValidatorCache = {
  /** Throws INVALID_DATA (errors.md §4) unless `data` is valid for `schema` (an already valid table schema). */
  validate(schema: unknown, data: unknown, ctx: RowValidationContext): void;
  /** Violations of `data` (empty when valid), without throwing. */
  check(schema: unknown, data: unknown): readonly { path: string; message: string; keyword: string }[];
  /** Number of compiled schemas held. */
  readonly size: number;
};

export type RowValidatorCacheOptions = {
  /** Compiled schemas kept (least recently used ones are dropped). Default 500. */
  readonly maxEntries?: number;
  /** Estimated bytes of the compiled schemas kept (each counted as 4× its Ajv schema plus 8 KiB). Default 64 MiB. */
  readonly maxBytes?: number;
};

type Entry = { readonly ajvSchema: object; readonly validate: ValidateFunction };

/** Keywords ajv does not see: `foreignKey` is checked elsewhere (domain.md §7), uniqueness by the deciders (§5.5). */
const NOT_FOR_AJV = new Set(['foreignKey', 'x-unique', 'x-index']);

/**
 * The schema ajv sees: system refs validate as strings; an integer node without bounds gets the safe-integer range
 * as bounds (domain.md §5.1 rule 1), so 2^60 is refused like any value out of range.
 */
function toAjvSchema(node: unknown): unknown {
  if (!isPlainObject(node)) return node;
  if ('$ref' in node) return { type: 'string' };
  const out: Record<string, unknown> = {};
  if (node.type === 'integer') {
    out.minimum = -Number.MAX_SAFE_INTEGER;
    out.maximum = Number.MAX_SAFE_INTEGER;
  }
  for (const [key, value] of Object.entries(node)) {
    if (NOT_FOR_AJV.has(key)) continue;
    if (key === 'items') out.items = toAjvSchema(value);
    else if (key === 'properties' && isPlainObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toAjvSchema(child)]));
    } else out[key] = value;
  }
  return out;
}

function toDetail(error: ErrorObject): { path: string; message: string; keyword: string } {
  const message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    const name = String((error.params as { missingProperty?: unknown }).missingProperty);
    return { path: `${error.instancePath}/${escapePointerToken(name)}`, message, keyword: 'required' };
  }
  if (error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    return { path: `${error.instancePath}/${escapePointerToken(name)}`, message, keyword: 'additionalProperties' };
  }
  return { path: error.instancePath, message, keyword: error.keyword };
}

function createAjv(): Ajv2020 {
  // Schema patterns run on a linear-time engine: a backtracking one lets one row write block the process.
  const ajv = new Ajv2020({ allErrors: true, strict: true, logger: false, validateFormats: true, code: { regExp: linearRegExpEngine } });
  for (const [name, check] of Object.entries(createFormatCheckers())) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv;
}

/**
 * Row-data validation of domain.md §5.4 with ajv (JSON Schema 2020-12, formats accept `""`). Compiled validators
 * are cached per canonical schema hash, with a per-object fast path for repeated calls with the same schema
 * (so a schema object must not be mutated after it was passed in).
 */
export function createRowValidatorCache(options: RowValidatorCacheOptions = {}): RowValidatorCache {
  const maxEntries = Math.max(1, options.maxEntries ?? 500);
  const ajv = createAjv();
  let byObject = new WeakMap<object, Entry>();
  const byHash = createBoundedCache<string, Entry>({
    maxEntries,
    maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    sizeOf: (entry) => 8192 + 4 * estimateBytes(entry.ajvSchema),
    onEvict: (_hash, dropped) => {
      ajv.removeSchema(dropped.ajvSchema);
      // The identity fast path may still point at the dropped validator; start it afresh.
      byObject = new WeakMap();
    },
  });

  function entryFor(schema: unknown): Entry {
    const known = typeof schema === 'object' && schema !== null ? byObject.get(schema) : undefined;
    if (known !== undefined) return known;
    const hash = jsonHash(schema);
    let entry = byHash.get(hash);
    if (entry === undefined) {
      const ajvSchema = toAjvSchema(schema) as object;
      entry = { ajvSchema, validate: ajv.compile(ajvSchema) };
      byHash.set(hash, entry);
      // Too large to keep on its own: Ajv must not keep it either.
      if (!byHash.has(hash)) ajv.removeSchema(ajvSchema);
    }
    if (typeof schema === 'object' && schema !== null) byObject.set(schema, entry);
    return entry;
  }

  function check(schema: unknown, data: unknown): { path: string; message: string; keyword: string }[] {
    const { validate } = entryFor(schema);
    if (validate(data)) return [];
    return (validate.errors ?? []).map(toDetail);
  }

  return {
    check,
    validate(schema, data, ctx) {
      const violations = check(schema, data);
      if (violations.length === 0) return;
      const withRowId = ctx.rowIdInDetails ?? ctx.index !== undefined;
      const details: RowValidationDetail[] = violations.map((v) => ({
        ...v,
        ...(withRowId ? { rowId: ctx.rowId } : {}),
        ...(ctx.index !== undefined ? { index: ctx.index } : {}),
      }));
      const [first] = violations;
      const message =
        violations.length === 1 && first !== undefined
          ? `Validation error at "${first.path}" in table "${ctx.tableId}" for row "${ctx.rowId}": ${first.message}`
          : `Validation failed with ${violations.length} errors in table "${ctx.tableId}" for row "${ctx.rowId}"`;
      throw new AppError('INVALID_DATA', message, details);
    },
    get size() {
      return byHash.size;
    },
  };
}
