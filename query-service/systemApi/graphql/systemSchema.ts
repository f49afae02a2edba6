import {
  GraphQLInputObjectType,
  buildSchema,
  getNamedType,
  isInputObjectType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from 'graphql';
import { invariant } from '../../../contracts/index.ts';
import { rowQueryTypeDefs, sharedScalarTypeDefs } from '../../graphqlKit/rowQueryTypeDefs.ts';
import { changeTypeDefs } from '../../graphqlKit/changeTypeDefs.ts';
import { operatorTypeDefs } from './operatorTypeDefs.ts';
import { webhookTypeDefs } from './webhookTypeDefs.ts';
import { dateTimeScalar, jsonScalar } from '../../graphqlKit/scalars.ts';
import { systemObjectTypeDefs } from './systemObjectTypeDefs.ts';
import { systemInputTypeDefs, systemRootTypeDefs } from './systemRootTypeDefs.ts';

/** The whole system SDL. */
export const systemTypeDefs = [
  sharedScalarTypeDefs,
  rowQueryTypeDefs('Row'),
  systemObjectTypeDefs,
  changeTypeDefs,
  operatorTypeDefs,
  webhookTypeDefs,
  systemInputTypeDefs,
  systemRootTypeDefs,
].join('\n');

/** Resolvers by type and field. Parents and results are plain views; `context` is the edge's own context type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resolver maps are typed per edge, not here
export type ResolverMap = Readonly<Record<string, Readonly<Record<string, GraphQLFieldResolver<any, any, any>>>>>;

/**
 * A fresh executable system schema with the DateTime and JSON scalars (fields use default resolvers until
 * attachResolvers). Built per service instance: attaching resolvers mutates the schema.
 */
export function buildSystemSchema(): GraphQLSchema {
  const schema = buildSchema(systemTypeDefs);
  for (const [name, implementation] of [
    ['DateTime', dateTimeScalar],
    ['JSON', jsonScalar],
  ] as const) {
    const type = schema.getType(name);
    invariant(isScalarType(type), `scalar ${name} is defined`);
    Object.assign(type, implementation);
  }
  return schema;
}

/** Sets the resolvers on the schema's fields; every named field must exist. */
export function attachResolvers(schema: GraphQLSchema, resolvers: ResolverMap): void {
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    invariant(isObjectType(type), `object type ${typeName} exists`);
    const defined = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = defined[fieldName];
      invariant(field !== undefined, `field ${typeName}.${fieldName} exists`);
      field.resolve = resolve;
    }
  }
}

/** The input type of a root field's `data` argument, or null when it has none. */
export function dataInputOf(schema: GraphQLSchema, root: 'Query' | 'Mutation', fieldName: string): GraphQLInputObjectType | null {
  const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[fieldName];
  invariant(field !== undefined, `${root}.${fieldName} exists`);
  const arg = field.args.find((a) => a.name === 'data');
  if (!arg) return null;
  const named = getNamedType(arg.type);
  invariant(isInputObjectType(named), `${root}.${fieldName}(data) is an input object`);
  return named;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field of any schema
const argumentInputs = new WeakMap<GraphQLField<any, any>, GraphQLInputObjectType>();

/**
 * The input of a root field as one input object: its `data` argument's type, or (for fields with plain arguments,
 * e.g. `apiKeyById(id:)`) an input object made of its arguments, so REST checks both kinds alike. Null without
 * arguments.
 */
export function fieldInputOf(schema: GraphQLSchema, root: 'Query' | 'Mutation', fieldName: string): GraphQLInputObjectType | null {
  const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[fieldName];
  invariant(field !== undefined, `${root}.${fieldName} exists`);
  if (field.args.length === 0) return null;
  if (field.args.some((arg) => arg.name === 'data')) return dataInputOf(schema, root, fieldName);
  let input = argumentInputs.get(field);
  if (input === undefined) {
    const args = field.args;
    input = new GraphQLInputObjectType({
      name: `${fieldName[0]?.toUpperCase() ?? ''}${fieldName.slice(1)}Arguments`,
      fields: Object.fromEntries(args.map((arg) => [arg.name, { type: arg.type, defaultValue: arg.defaultValue, description: arg.description }])),
    });
    argumentInputs.set(field, input);
  }
  return input;
}
