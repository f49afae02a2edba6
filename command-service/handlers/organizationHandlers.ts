import { findProjectByName, invariant, isoTime, organizationStreamId } from '../../contracts/index.ts';
import type { BranchView, CommandContext, CommandOutcome, DomainEvent, SuccessView, SystemState } from '../../contracts/index.ts';
import { appendWithRetry, buildEvents } from '../commandHandler.ts';
import type { CommandHandlers, HandlerDeps } from '../commandHandler.ts';
import { organizationDecider, organizationOfCommand } from '../domain/organizationDecider.ts';
import type { OrganizationCommand } from '../domain/organizationDecider.ts';
import { endpointView, projectView } from './systemViews.ts';

export type OrganizationCommandType =
  'CreateProject' | 'UpdateProject' | 'DeleteProject' | 'CreateBranch' | 'DeleteBranch' | 'CreateEndpoint' | 'DeleteEndpoint';

const PROJECTIONS = ['catalog'] as const;
const DEFAULT_ROOT_BRANCH = 'master';
const success: SuccessView = { success: true };

function eventOf<T extends DomainEvent['type']>(events: readonly DomainEvent[], type: T): Extract<DomainEvent, { type: T }> | null {
  return (events.find((event) => event.type === type) as Extract<DomainEvent, { type: T }> | undefined) ?? null;
}

/** Handlers of the `organization-{orgId}` streams: projects, branches, endpoints. */
export function createOrganizationHandlers(deps: HandlerDeps): Pick<CommandHandlers, OrganizationCommandType> {
  const { systemState, clock, newId } = deps;

  async function run<T>(
    context: CommandContext,
    command: OrganizationCommand,
    toResult: (state: SystemState, events: readonly DomainEvent[], time: string) => T,
  ): Promise<CommandOutcome<T>> {
    const outcome = await appendWithRetry(deps, async () => {
      const state = await systemState.current();
      const now = clock.now();
      const events = organizationDecider.decide(command, state);
      const organizationId = organizationOfCommand(command, state);
      invariant(events.length === 0 || organizationId !== null, 'an accepted command names a known organization');
      const streamId = organizationStreamId(organizationId ?? '');
      return {
        streamId,
        expected: state.streamRevisions.get(streamId) ?? 'no_stream',
        events: buildEvents(events, context, clock, now),
        result: toResult(state, events, isoTime(now)),
        seenPosition: state.position,
      };
    });
    return { result: outcome.result, position: outcome.position, projections: PROJECTIONS };
  }

  const metadata = (context: CommandContext) => ({ principal: context.principal });
  const newBranchIds = () => ({ branchId: newId(), startRevisionId: newId(), draftRevisionId: newId() });

  return {
    async CreateProject(input, context) {
      const branchName = input.branchName ?? DEFAULT_ROOT_BRANCH;
      const data = {
        organizationId: input.organizationId,
        projectName: input.projectName,
        branchName,
        isPublic: input.isPublic ?? false,
        projectId: newId(),
        ...newBranchIds(),
      };
      return run(context, { type: 'CreateProject', data, metadata: metadata(context) }, (_state, _events, time) =>
        projectView(
          { id: data.projectId, organizationId: data.organizationId, name: data.projectName, isPublic: data.isPublic, createdAt: time },
          branchName,
        ),
      );
    },
    async UpdateProject(input, context) {
      return run(context, { type: 'UpdateProject', data: input, metadata: metadata(context) }, (state) => {
        const project = findProjectByName(state, input.organizationId, input.projectName);
        invariant(project, 'an accepted UpdateProject names a live project');
        const root = state.branches.get(project.rootBranchId);
        invariant(root, 'a project has its root branch');
        return projectView({ ...project, isPublic: input.isPublic }, root.name);
      });
    },
    async DeleteProject(input, context) {
      return run(context, { type: 'DeleteProject', data: input, metadata: metadata(context) }, () => success);
    },
    async CreateBranch(input, context) {
      const data = { revisionId: input.revisionId, branchName: input.branchName, ...newBranchIds() };
      return run(context, { type: 'CreateBranch', data, metadata: metadata(context) }, (_state, events, time): BranchView => {
        const created = eventOf(events, 'BranchCreated');
        invariant(created, 'CreateBranch appends BranchCreated');
        const d = created.data;
        return {
          id: d.branchId,
          projectId: d.projectId,
          name: d.name,
          isRoot: false,
          createdAt: time,
          headRevisionId: d.startRevisionId,
          draftRevisionId: d.draftRevisionId,
          startRevisionId: d.startRevisionId,
          parent: { branchName: d.sourceBranchName, revisionId: d.sourceRevisionId },
          // A new branch's draft equals its start revision.
          touched: false,
        };
      });
    },
    async DeleteBranch(input, context) {
      return run(context, { type: 'DeleteBranch', data: input, metadata: metadata(context) }, () => success);
    },
    async CreateEndpoint(input, context) {
      const data = { revisionId: input.revisionId, type: input.type, endpointId: newId() };
      return run(context, { type: 'CreateEndpoint', data, metadata: metadata(context) }, (state, events, time) => {
        const created = eventOf(events, 'EndpointCreated');
        invariant(created, 'CreateEndpoint appends EndpointCreated');
        return endpointView(state, { id: created.data.endpointId, ...created.data, createdAt: time });
      });
    },
    async DeleteEndpoint(input, context) {
      return run(context, { type: 'DeleteEndpoint', data: input, metadata: metadata(context) }, () => success);
    },
  };
}
