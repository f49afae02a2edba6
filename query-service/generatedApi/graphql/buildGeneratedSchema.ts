import { buildSubgraphSchema } from '@apollo/subgraph';
import { GraphQLScalarType, executeSync, parse, type GraphQLSchema, type ValidationRule } from 'graphql';
import { invariant } from '../../../contracts/index.ts';
import { dateTimeScalar, jsonScalar } from '../../graphqlKit/scalars.ts';
import { computeNames, type GeneratedTable, type ProjectNames } from '../naming.ts';
import type { GeneratedDataSource } from './generatedDataSource.ts';
import { generatedResolvers, type GeneratedGraphqlContext } from './generatedResolvers.ts';
import { generatedTypeDefs, graphqlTablesOf, type GeneratedSchemaMode } from './generatedTypeDefs.ts';
import { knownOperationTypesRule } from './knownOperationTypesRule.ts';
import { createRequestLoaders } from './requestLoaders.ts';

export type BuildGeneratedSchemaOptions<TRequest> = {
  readonly projectName: string;
  readonly mode: GeneratedSchemaMode;
  /** Every table of the served revision (any order). */
  readonly tables: readonly GeneratedTable[];
  /** GRAPHQL_ROOT_FIELD_PREFIX (generated-api.md §6). */
  readonly rootFieldPrefix: boolean;
  /** Reads and writes of the served revision. */
  readonly dataSource: GeneratedDataSource<TRequest>;
};

export type GeneratedSchema<TRequest> = {
  /** Executable federation subgraph schema (`_service`, `_entities` when it has tables). */
  readonly schema: GraphQLSchema;
  /** The printed subgraph SDL, exactly what `_service { sdl }` returns. */
  readonly sdl: string;
  readonly names: ProjectNames;
  /**
   * Rules to run besides graphql's `specifiedRules` (Apollo: `validationRules`): a mutation on a HEAD or pinned
   * schema fails validation.
   */
  readonly validationRules: readonly ValidationRule[];
  /** A fresh context per request (its own row loaders); pass it as the execution context. */
  createContext(request: TRequest): GeneratedGraphqlContext<TRequest>;
};

function subgraphSdl(schema: GraphQLSchema): string {
  const result = executeSync({ schema, document: parse('{ _service { sdl } }') });
  const sdl = (result.data as { _service?: { sdl?: unknown } } | null | undefined)?._service?.sdl;
  invariant(typeof sdl === 'string', 'a subgraph schema answers _service { sdl }');
  return sdl;
}

/**
 * The generated GraphQL API of one revision (generated-api.md §5–§6) as an Apollo Federation 2 subgraph: types and
 * root fields named by §2, mutations only in `draft` mode, resolvers calling `dataSource`. Pure apart from the
 * data source calls its resolvers make; cache the result per (revision, schema hash).
 */
export function buildGeneratedSchema<TRequest>(options: BuildGeneratedSchemaOptions<TRequest>): GeneratedSchema<TRequest> {
  const { projectName, mode, tables, rootFieldPrefix, dataSource } = options;
  const names = computeNames(projectName, tables, { rootFieldPrefix });
  const typeDefs = parse(generatedTypeDefs(names, tables, mode));
  const resolvers = generatedResolvers({ names, tables: graphqlTablesOf(names, tables), writable: mode === 'draft', dataSource });
  const schema = buildSubgraphSchema({
    typeDefs,
    resolvers: {
      // eslint-disable-next-line no-restricted-syntax -- once per schema build, not per request
      ...resolvers,
      DateTime: new GraphQLScalarType({ name: 'DateTime', ...dateTimeScalar }),
      JSON: new GraphQLScalarType({ name: 'JSON', ...jsonScalar }),
    },
  });
  return {
    schema,
    sdl: subgraphSdl(schema),
    names,
    validationRules: [knownOperationTypesRule],
    createContext: (request) => ({ request, loaders: createRequestLoaders(dataSource, request) }),
  };
}
