import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLLeafType,
} from 'graphql';
import { AppError, isPlainObject, toJsonPointer, type ErrorDetail } from '../../../contracts/index.ts';

type Path = readonly (string | number)[];

function label(path: Path): string {
  const last = path.at(-1);
  return last === undefined ? 'body' : typeof last === 'number' ? `item ${last}` : last;
}

function leafExpectation(type: GraphQLLeafType): string {
  if (isEnumType(type))
    return `one of ${type
      .getValues()
      .map((v) => v.name)
      .join(', ')}`;
  switch (type) {
    case GraphQLString:
    case GraphQLID:
      return 'a string';
    case GraphQLInt:
      return 'an integer';
    case GraphQLFloat:
      return 'a number';
    case GraphQLBoolean:
      return 'a boolean';
    default:
      return type.name === 'DateTime' ? 'an ISO 8601 date-time string' : `a ${type.name}`;
  }
}

type Checker = { readonly errors: ErrorDetail[] };

function fail(checker: Checker, path: Path, message: string): undefined {
  checker.errors.push({ path: toJsonPointer(path), message: `${label(path)} ${message}` });
  return undefined;
}

function coerceObject(
  checker: Checker,
  type: GraphQLInputObjectType,
  value: unknown,
  path: Path,
  omit: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return fail(checker, path, 'must be an object');
  const fields = type.getFields();
  for (const key of Object.keys(value)) {
    if (!Object.prototype.hasOwnProperty.call(fields, key) || omit.has(key)) fail(checker, [...path, key], 'is not a known field');
  }
  const out: Record<string, unknown> = {};
  for (const field of Object.values(fields)) {
    if (omit.has(field.name)) continue;
    const member = value[field.name];
    if (member === undefined) {
      if (field.defaultValue !== undefined) out[field.name] = field.defaultValue;
      else if (isNonNullType(field.type)) fail(checker, [...path, field.name], 'is required');
      continue;
    }
    out[field.name] = coerce(checker, field.type, member, [...path, field.name]);
  }
  return out;
}

function coerce(checker: Checker, type: GraphQLInputType, value: unknown, path: Path): unknown {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) return fail(checker, path, 'must not be null');
    return coerce(checker, type.ofType, value, path);
  }
  if (value === null || value === undefined) return null;
  if (isListType(type)) {
    // GraphQL input coercion: a single value stands for a list of one.
    if (!Array.isArray(value)) return [coerce(checker, type.ofType, value, path)];
    return value.map((item: unknown, index) => coerce(checker, type.ofType, item, [...path, index]));
  }
  if (isInputObjectType(type)) return coerceObject(checker, type, value, path, new Set());
  try {
    const parsed: unknown = type.parseValue(value);
    if (parsed === undefined) return fail(checker, path, `must be ${leafExpectation(type)}`);
    return parsed;
  } catch {
    return fail(checker, path, `must be ${leafExpectation(type)}`);
  }
}

/**
 * Checks and coerces a JSON input (a REST body or decoded query string) against a GraphQL input object type with
 * GraphQL's coercion rules (defaults applied, unknown fields refused, a single value accepted for a list), so REST
 * and GraphQL accept exactly the same inputs. `omit` names fields supplied elsewhere (REST path ids): they are
 * refused in `value` and left out of the result. Failures: 400 BAD_USER_INPUT with `{path, message}` details
 * (`path` a JSON Pointer into `value`).
 */
export function coerceInput(type: GraphQLInputObjectType, value: unknown, omit: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const checker: Checker = { errors: [] };
  const out = coerceObject(checker, type, value ?? {}, [], omit);
  const first = checker.errors[0];
  if (first !== undefined || out === undefined) {
    const count = checker.errors.length;
    const message =
      count <= 1
        ? `Invalid input${first?.path ? ` at "${String(first.path)}"` : ''}: ${String(first?.message ?? 'body must be an object')}`
        : `Invalid input: ${count} errors`;
    throw new AppError('BAD_USER_INPUT', message, checker.errors);
  }
  return out;
}
