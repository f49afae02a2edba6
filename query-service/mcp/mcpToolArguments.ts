import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { MAX_JSON_DEPTH, isJsonTextTooDeep, isPlainObject } from '../../contracts/index.ts';
import { JSON_RPC } from './mcpHttpError.ts';
import { inputSchemaOf, type ToolSpec } from './mcpToolCatalog.ts';

/**
 * A JSON-RPC error raised inside a request handler: the SDK answers `{code, message, data?}` with this code
 * (used for -32602 Invalid params and -32603 Internal error).
 */
export class JsonRpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
  }
}

export const invalidParams = (message: string): JsonRpcError => new JsonRpcError(JSON_RPC.invalidParams, message);

/** The revision a tool works on (mcp.md §4), before resolution. */
export type TargetForm =
  | { readonly kind: 'revision'; readonly revisionId: string }
  | {
      readonly kind: 'branch';
      readonly organizationId: string;
      readonly projectName: string;
      readonly branchName: string;
      /** `draft`, `head` or a revision id of the branch. */
      readonly revision: string;
    };

function schemaType(schema: unknown): unknown {
  return isPlainObject(schema) ? schema.type : undefined;
}

/** A string holding JSON where an object or array is expected is parsed (mcp.md §5); anything else is kept. */
function parsedIfJson(value: unknown, type: unknown, name: string): unknown {
  if (typeof value !== 'string' || (type !== 'object' && type !== 'array')) return value;
  if (isJsonTextTooDeep(value)) throw invalidParams(`argument "${name}" is nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    const parsed: unknown = JSON.parse(value);
    return (type === 'array' ? Array.isArray(parsed) : isPlainObject(parsed)) ? parsed : value;
  } catch {
    return value;
  }
}

function withParsedJson(args: Record<string, unknown>, schema: ReturnType<typeof inputSchemaOf>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const property = schema.properties[name];
    let parsed = parsedIfJson(value, schemaType(property), name);
    const items = isPlainObject(property) ? property.items : undefined;
    if (Array.isArray(parsed) && isPlainObject(items) && isPlainObject(items.properties)) {
      const itemProperties = items.properties;
      // Row items of create_rows/update_rows/patch_rows: their `data`/`patches` may be JSON strings too.
      parsed = parsed.map((item: unknown) =>
        isPlainObject(item)
          ? Object.fromEntries(
              Object.entries(item).map(([key, member]) => [key, parsedIfJson(member, schemaType(itemProperties[key]), `${name}/${key}`)]),
            )
          : item,
      );
    }
    out[name] = parsed;
  }
  return out;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `missing required argument "${String(params.missingProperty)}"`;
  if (error.keyword === 'additionalProperties') {
    const where = error.instancePath === '' ? 'argument' : `property in "${error.instancePath.slice(1)}"`;
    return `unknown ${where} "${String(params.additionalProperty)}"`;
  }
  const path = error.instancePath.slice(1);
  return path === '' ? `arguments ${error.message ?? 'are invalid'}` : `argument "${path}" ${error.message ?? 'is invalid'}`;
}

export type ToolArgumentParser = (spec: ToolSpec, args: unknown) => Record<string, unknown>;

/**
 * Checks a call's arguments against the tool's input schema after parsing JSON strings; a failure is -32602 naming
 * the first failing argument. Validators are compiled once per tool.
 */
export function createToolArgumentParser(): ToolArgumentParser {
  const ajv = new Ajv({ allErrors: false, strict: true });
  const validators = new Map<string, { schema: ReturnType<typeof inputSchemaOf>; validate: ValidateFunction }>();
  return (spec, args) => {
    let entry = validators.get(spec.name);
    if (entry === undefined) {
      const schema = inputSchemaOf(spec);
      entry = { schema, validate: ajv.compile(schema) };
      validators.set(spec.name, entry);
    }
    if (args !== undefined && !isPlainObject(args)) throw invalidParams(`Invalid arguments for tool "${spec.name}": arguments must be an object`);
    const parsed = withParsedJson(args ?? {}, entry.schema);
    if (!entry.validate(parsed)) {
      const first = entry.validate.errors?.[0];
      throw invalidParams(`Invalid arguments for tool "${spec.name}": ${first ? describe(first) : 'invalid'}`);
    }
    return parsed;
  };
}

/** §4: exactly one of `revisionId` or the complete organizationId + projectName + branchName triple. */
export function targetFormOf(args: Readonly<Record<string, unknown>>): TargetForm {
  const { revisionId, organizationId, projectName, branchName, revision } = args;
  const triple = [organizationId, projectName, branchName];
  const named = triple.filter((value) => value !== undefined).length;
  if (revisionId !== undefined) {
    if (named > 0 || revision !== undefined) {
      throw invalidParams('Invalid target: give either revisionId or organizationId + projectName + branchName (+ revision), not both');
    }
    return { kind: 'revision', revisionId: revisionId as string };
  }
  if (named === 0) throw invalidParams('Invalid target: give revisionId or organizationId + projectName + branchName');
  if (named < 3) throw invalidParams('Invalid target: organizationId, projectName and branchName must be given together');
  return {
    kind: 'branch',
    organizationId: organizationId as string,
    projectName: projectName as string,
    branchName: branchName as string,
    revision: (revision as string | undefined) ?? 'draft',
  };
}

/** The arguments without the target group (the resolved `revisionId` is added by the caller). */
export function withoutTarget(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { revisionId: _r, organizationId: _o, projectName: _p, branchName: _b, revision: _v, ...rest } = args;
  return rest;
}
