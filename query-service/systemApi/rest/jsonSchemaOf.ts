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
  isObjectType,
  isScalarType,
  type GraphQLInputObjectType,
  type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';
import { componentRef, type JsonSchema } from '../../http/openApi.ts';

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case GraphQLString.name:
    case GraphQLID.name:
      return { type: 'string' };
    case GraphQLInt.name:
      return { type: 'integer' };
    case GraphQLFloat.name:
      return { type: 'number' };
    case GraphQLBoolean.name:
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    default:
      // JSON: any value.
      return {};
  }
}

function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string' && schema.enum === undefined) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * JSON Schemas (OpenAPI 3.1 dialect) of GraphQL types: object and input object types and enums become components
 * (collected in `components`), scalars are inlined. Object types lose the GraphQL-only fields listed in `hidden`
 * and fields with arguments, so the schemas describe the REST JSON.
 */
export function createJsonSchemas(hidden: Readonly<Record<string, readonly string[]>>): {
  readonly components: Record<string, JsonSchema>;
  schemaOf(type: GraphQLType): JsonSchema;
  objectOf(type: GraphQLInputObjectType, omit?: ReadonlySet<string>): JsonSchema;
} {
  const components: Record<string, JsonSchema> = {};

  function named(type: GraphQLNamedType): JsonSchema {
    if (isScalarType(type)) return scalarSchema(type.name);
    if (!(type.name in components)) {
      components[type.name] = {};
      if (isEnumType(type)) components[type.name] = { type: 'string', enum: type.getValues().map((v) => v.name) };
      else if (isInputObjectType(type)) components[type.name] = objectOf(type);
      else if (isObjectType(type)) {
        const skip = new Set(hidden[type.name] ?? []);
        const fields = Object.values(type.getFields()).filter((f) => !skip.has(f.name) && f.args.length === 0);
        components[type.name] = {
          type: 'object',
          properties: Object.fromEntries(fields.map((f) => [f.name, schemaOf(f.type)])),
          required: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
        };
      }
    }
    return componentRef(type.name);
  }

  function schemaOf(type: GraphQLType): JsonSchema {
    if (isNonNullType(type)) return strict(type.ofType);
    return nullable(strict(type));
  }

  function strict(type: GraphQLType): JsonSchema {
    if (isNonNullType(type)) return strict(type.ofType);
    if (isListType(type)) return { type: 'array', items: schemaOf(type.ofType) };
    return named(type);
  }

  function objectOf(type: GraphQLInputObjectType, omit: ReadonlySet<string> = new Set()): JsonSchema {
    const fields = Object.values(type.getFields()).filter((f) => !omit.has(f.name));
    const required = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
    const properties = Object.fromEntries(
      fields.map((f) => {
        const schema = schemaOf(f.type);
        return [f.name, f.defaultValue === undefined ? schema : { ...schema, default: f.defaultValue }];
      }),
    );
    return { type: 'object', properties, required, additionalProperties: false };
  }

  return { components, schemaOf, objectOf };
}
