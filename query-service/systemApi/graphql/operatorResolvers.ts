import type { GraphQLFieldResolver } from 'graphql';
import type { OperatorOperations } from '../operations/operatorOperations.ts';
import type { ResolverMap } from './systemSchema.ts';
import type { DataArgs, SystemGraphqlContext } from './systemGraphqlContext.ts';

type Resolver = GraphQLFieldResolver<unknown, SystemGraphqlContext, DataArgs>;

/** Root fields of the operator API (operations.md §5.1), resolved here rather than by the read and write catalogues. */
export const operatorQueryFields: readonly string[] = ['projections'];
export const operatorMutationFields: readonly string[] = ['rebuildProjection'];

export function createOperatorResolvers(ops: OperatorOperations): ResolverMap {
  const projections: Resolver = (_root, _args, ctx) => ops.projections(ctx.request);
  const rebuildProjection: Resolver = (_root, args, ctx) => ops.rebuildProjection(ctx.request, { name: String(args.name) });
  return { Query: { projections }, Mutation: { rebuildProjection } };
}
