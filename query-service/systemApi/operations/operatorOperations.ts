import { AppError, assertSystemAdmin, principalRef } from '../../../contracts/index.ts';
import type { ProjectionOperations, ProjectionStatusView, SystemStateSource } from '../../../contracts/index.ts';
import type { RequestContext } from './operationTypes.ts';

/** The operator reads and actions of operations.md §5.1 (`systemAdmin` only), shared by GraphQL and REST. */
export type OperatorOperations = {
  projections(ctx: RequestContext): Promise<ProjectionStatusView[]>;
  rebuildProjection(ctx: RequestContext, input: { readonly name: string }): Promise<{ readonly names: readonly string[] }>;
};

export function createOperatorOperations(deps: {
  readonly systemState: SystemStateSource;
  /** Absent in a process wired without the projection operations: 503. */
  readonly projections?: ProjectionOperations;
}): OperatorOperations {
  async function admitted(ctx: RequestContext): Promise<ProjectionOperations> {
    assertSystemAdmin(await deps.systemState.current(), ctx.principal);
    if (deps.projections === undefined) throw new AppError('SERVICE_UNAVAILABLE', 'Projection operations are not available here');
    return deps.projections;
  }
  return {
    projections: async (ctx) => (await admitted(ctx)).statuses(),
    rebuildProjection: async (ctx, input) => (await admitted(ctx)).startRebuild(input.name, principalRef(ctx.principal)),
  };
}
