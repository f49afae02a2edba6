export { createSqliteEventStore } from './adapters/sqliteEventStore.ts';
export { assertValidTableSchema } from './domain/tables/validateTableSchema.ts';
export { createRowValidatorCache } from './domain/tables/rowValidator.ts';
export { applySchemaPatch } from './domain/tables/applySchemaPatch.ts';
export { applyRowPatches } from './domain/rows/applyRowPatches.ts';
export { jsonHash } from './domain/tables/jsonHash.ts';
export { MAX_PATCH_OPERATIONS } from './domain/tables/patchOperations.ts';
export { createCommandService } from './createCommandService.ts';
export { createSystemStateSource } from './state/systemStateSource.ts';
export { createAuthenticator, findUserByUsername } from './auth/authenticator.ts';
export { createInMemoryLoginThrottleStore } from './auth/loginThrottle.ts';
export { hashPassword, verifyPassword } from './auth/passwords.ts';
export { ensureAdminUser } from './seedAdmin.ts';
export { appendWithRetry, buildEvents } from './commandHandler.ts';
export { CONTENT_PROJECTIONS, createBranchCommandHandlers } from './branches/branchCommandHandlers.ts';

export type { SqliteEventStoreOptions } from './adapters/sqliteEventStore.ts';
export type { TableSchemaContext } from './domain/tables/validateTableSchema.ts';
export type {
  RowValidationContext,
  RowValidationDetail,
  RowValidatorCache,
  RowValidatorCacheOptions,
} from './domain/tables/rowValidator.ts';
export type { SchemaPatchResult } from './domain/tables/applySchemaPatch.ts';
export type { CommandService, CommandServiceConfig, CommandServiceDeps } from './createCommandService.ts';
export type { CatchingUpSystemStateSource } from './state/systemStateSource.ts';
export type { AuthenticatorOptions } from './auth/authenticator.ts';
export type { LoginThrottleStore, ThrottleWindow } from './auth/loginThrottle.ts';
export type { EnsureAdminUserOptions } from './seedAdmin.ts';
export type { AppendOutcome, AppendPlan, CommandHandler, CommandHandlers, HandlerDeps } from './commandHandler.ts';
export type { BranchCommandHandlerDeps, BranchCommandHandlers } from './branches/branchCommandHandlers.ts';
