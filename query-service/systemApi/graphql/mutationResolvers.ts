import type { GraphQLFieldResolver } from 'graphql';
import { maxPosition, type CommandGateway, type CommandInput, type CommandType, type TableView } from '../../../contracts/index.ts';
import { awaitWriteConsistency, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import { graphqlWriteValue, systemWrites, type WriteSpec } from '../operations/systemWrites.ts';
import type { ResolverMap } from './systemSchema.ts';
import { dataOf, tagTable, type DataArgs, type SystemGraphqlContext } from './systemGraphqlContext.ts';

type Resolver = GraphQLFieldResolver<unknown, SystemGraphqlContext, DataArgs>;

export type MutationResolverDeps = {
  readonly gateway: CommandGateway;
  /** WRITE_CONSISTENCY wait of each mutation (projections come from the command outcome). */
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
};

const tableResults: ReadonlySet<string> = new Set(['createTable', 'updateTable', 'renameTable']);

/** Query fields that run a command without appending (dry runs), resolved here through the gateway. */
export const dryRunQueryFields: readonly string[] = ['previewMerge', 'previewUpdateTable'];

/**
 * Every write of the catalogue through the gateway (`login` is in authResolvers.ts). GraphQL runs mutation fields
 * one after another; each waits for its projections (WRITE_CONSISTENCY) so the next field and the response see it,
 * and records its position for `extensions.position`. An own password change clears the session cookies.
 */
export function createMutationResolvers(deps: MutationResolverDeps): ResolverMap {
  const { gateway, consistency } = deps;
  const mutation: Record<string, Resolver> = {};
  const query: Record<string, Resolver> = {};
  for (const [name, spec] of Object.entries(systemWrites) as [string, WriteSpec<CommandType>][]) {
    // A write that appends nothing (previewMerge) is a query field.
    (dryRunQueryFields.includes(name) ? query : mutation)[name] = async (_root, args, ctx) => {
      const data = dataOf(args);
      const outcome = await gateway.execute(spec.command, spec.toCommand(data), {
        principal: ctx.request.principal,
        correlationId: ctx.request.requestId,
      });
      if (outcome.position !== null) {
        await awaitWriteConsistency(outcome.position, { ...consistency, projections: outcome.projections });
        ctx.position = maxPosition(ctx.position, outcome.position);
      }
      if (spec.clearsSessionCookies) ctx.session.clearCookies();
      const value = graphqlWriteValue(spec.output, outcome.result);
      return tableResults.has(name) ? tagTable(value as TableView, String(data.revisionId)) : value;
    };
  }
  const previewUpdateTable: Resolver = async (_root, args, ctx) => {
    const data = dataOf(args);
    const { result } = await gateway.execute('PreviewUpdateTable', data as CommandInput<'PreviewUpdateTable'>, {
      principal: ctx.request.principal,
      correlationId: ctx.request.requestId,
    });
    return { ...result, table: tagTable(result.table, String(data.revisionId)) };
  };
  return { Mutation: mutation, Query: { ...query, previewUpdateTable } };
}
