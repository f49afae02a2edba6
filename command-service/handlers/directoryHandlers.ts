import { AppError, assertPassword, assertSystemAdmin, assertUsername, directoryStreamId, isoTime, principalRef } from '../../contracts/index.ts';
import type { CommandContext, CommandOutcome, DomainEvent, SuccessView, SystemState } from '../../contracts/index.ts';
import { appendWithRetry, buildEvents } from '../commandHandler.ts';
import type { CommandHandlers, HandlerDeps } from '../commandHandler.ts';
import { hashPassword, verifyPassword } from '../sessions/passwords.ts';
import { auditUserEvent } from '../audit/userAudit.ts';
import { assertPasswordOwner, directoryDecider } from '../domain/directoryDecider.ts';
import type { DirectoryCommand } from '../domain/directoryDecider.ts';
import { assertMayWrite, requireUser } from '../domain/resolveTargets.ts';
import { organizationView, userView } from './systemViews.ts';

export type DirectoryCommandType =
  | 'CreateUser'
  | 'DeactivateUser'
  | 'ReactivateUser'
  | 'SetUserRole'
  | 'ResetPassword'
  | 'UpdatePassword'
  | 'CreateOrganization'
  | 'AddUserToOrganization'
  | 'RemoveUserFromOrganization'
  | 'AddUserToProject'
  | 'RemoveUserFromProject';

const PROJECTIONS = ['directory'] as const;
const success: SuccessView = { success: true };

/** Handlers of the `directory` stream: decide against the current system state, append, retry on conflict. */
export function createDirectoryHandlers(deps: HandlerDeps): Pick<CommandHandlers, DirectoryCommandType> {
  const { systemState, clock, newId } = deps;

  async function run<T>(
    context: CommandContext,
    command: DirectoryCommand,
    toResult: (state: SystemState, events: readonly DomainEvent[], time: string) => T,
  ): Promise<CommandOutcome<T>> {
    let decided: readonly DomainEvent[] = [];
    const outcome = await appendWithRetry(deps, async () => {
      const state = await systemState.current();
      const now = clock.now();
      const events = directoryDecider.decide(command, state);
      decided = events;
      return {
        streamId: directoryStreamId,
        expected: state.streamRevisions.get(directoryStreamId) ?? 'no_stream',
        events: buildEvents(events, context, clock, now),
        result: toResult(state, events, isoTime(now)),
        seenPosition: state.position,
      };
    });
    if (outcome.appended !== null) for (const event of decided) auditUserEvent(deps.log, principalRef(context.principal), event);
    return { result: outcome.result, position: outcome.position, projections: PROJECTIONS };
  }

  /** Authorization before input validation and the slow password hash, as auth.md §10 orders them. */
  async function authorizeAdmin(context: CommandContext): Promise<void> {
    assertMayWrite(context.principal);
    assertSystemAdmin(await systemState.current(), context.principal);
  }

  const metadata = (context: CommandContext) => ({ principal: context.principal });

  return {
    async CreateUser(input, context) {
      await authorizeAdmin(context);
      assertUsername(input.username);
      assertPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const userId = newId();
      const data = { userId, username: input.username, email: input.email ?? null, role: input.role ?? 'systemUser', passwordHash };
      return run(context, { type: 'CreateUser', data, metadata: metadata(context) }, (_state, _events, time) =>
        userView({ id: userId, ...data, isActive: true, createdAt: time }),
      );
    },
    async DeactivateUser(input, context) {
      return run(context, { type: 'DeactivateUser', data: { userId: input.userId }, metadata: metadata(context) }, (state) =>
        userView({ ...requireUser(state, input.userId), isActive: false }),
      );
    },
    async ReactivateUser(input, context) {
      return run(context, { type: 'ReactivateUser', data: { userId: input.userId }, metadata: metadata(context) }, (state) =>
        userView({ ...requireUser(state, input.userId), isActive: true }),
      );
    },
    async SetUserRole(input, context) {
      return run(context, { type: 'SetUserRole', data: { userId: input.userId, role: input.role }, metadata: metadata(context) }, (state) =>
        userView({ ...requireUser(state, input.userId), role: input.role }),
      );
    },
    async ResetPassword(input, context) {
      await authorizeAdmin(context);
      assertPassword(input.newPassword);
      const passwordHash = await hashPassword(input.newPassword);
      return run(context, { type: 'ResetPassword', data: { userId: input.userId, passwordHash }, metadata: metadata(context) }, () => success);
    },
    async UpdatePassword(input, context) {
      const { principal } = context;
      assertPasswordOwner(principal);
      assertPassword(input.newPassword);
      const user = requireUser(await systemState.current(), principal.userId);
      const verifiedPasswordHash = user.passwordHash;
      if (typeof input.oldPassword !== 'string' || !(await verifyPassword(input.oldPassword, verifiedPasswordHash))) {
        throw new AppError('BAD_USER_INPUT', 'Old password is incorrect');
      }
      const passwordHash = await hashPassword(input.newPassword);
      return run(context, { type: 'UpdatePassword', data: { passwordHash, verifiedPasswordHash }, metadata: metadata(context) }, () => success);
    },
    async CreateOrganization(input, context) {
      const data = { organizationId: input.organizationId, ownerId: input.ownerId ?? null };
      return run(context, { type: 'CreateOrganization', data, metadata: metadata(context) }, (_state, _events, time) =>
        organizationView({ id: input.organizationId, isPersonal: false, createdAt: time }),
      );
    },
    async AddUserToOrganization(input, context) {
      const data = { organizationId: input.organizationId, userId: input.userId, role: input.role };
      return run(context, { type: 'AddUserToOrganization', data, metadata: metadata(context) }, () => success);
    },
    async RemoveUserFromOrganization(input, context) {
      const data = { organizationId: input.organizationId, userId: input.userId };
      return run(context, { type: 'RemoveUserFromOrganization', data, metadata: metadata(context) }, () => success);
    },
    async AddUserToProject(input, context) {
      const data = { organizationId: input.organizationId, projectName: input.projectName, userId: input.userId, role: input.role };
      return run(context, { type: 'AddUserToProject', data, metadata: metadata(context) }, () => success);
    },
    async RemoveUserFromProject(input, context) {
      const data = { organizationId: input.organizationId, projectName: input.projectName, userId: input.userId };
      return run(context, { type: 'RemoveUserFromProject', data, metadata: metadata(context) }, () => success);
    },
  };
}
