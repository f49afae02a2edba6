import { GraphQLError, Kind, type GraphQLScalarTypeConfig, type ValueNode } from 'graphql';
import { createBoundedCache, isPlainObject } from '../../contracts/index.ts';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** Strings already found valid: rows served again serialize their times without the regex and Date.parse. */
const checked = createBoundedCache<string, true>({ maxEntries: 10_000, maxBytes: 2 * 1024 * 1024, sizeOf: () => 0 });

export function isDateTimeString(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (checked.get(value) === true) return true;
  if (!DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) return false;
  checked.set(value, true);
  return true;
}

function parseDateTime(value: unknown): string {
  if (!isDateTimeString(value)) throw new GraphQLError('DateTime must be an ISO 8601 date-time string');
  return value;
}

/** `DateTime`: RFC 3339 strings in and out (times are stored and returned as ISO strings). */
export const dateTimeScalar: Pick<GraphQLScalarTypeConfig<string, string>, 'serialize' | 'parseValue' | 'parseLiteral'> = {
  serialize: (value) => (value instanceof Date ? value.toISOString() : parseDateTime(value)),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : undefined),
};

/** A literal as plain JSON (ordinary objects, unlike graphql's null-prototype ones); variables are substituted. */
export function jsonFromLiteral(ast: ValueNode, variables: Readonly<Record<string, unknown>> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((item) => jsonFromLiteral(item, variables));
    case Kind.OBJECT: {
      const out: Record<string, unknown> = {};
      for (const field of ast.fields) out[field.name.value] = jsonFromLiteral(field.value, variables);
      return out;
    }
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

/** `JSON`: any JSON value, passed through unchanged. */
export const jsonScalar: Pick<GraphQLScalarTypeConfig<unknown, unknown>, 'serialize' | 'parseValue' | 'parseLiteral'> = {
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => jsonFromLiteral(ast, variables),
};

/**
 * A deep copy of a coerced GraphQL input as ordinary JSON objects: graphql builds input objects without a
 * prototype, which the write side should not have to care about.
 */
export function toPlainJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) if (member !== undefined) out[key] = toPlainJson(member);
    return out;
  }
  return value;
}
