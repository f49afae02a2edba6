export { createSqliteEventStore } from './adapters/sqliteEventStore.ts';
export { createKurrentEventStore, createKurrentEventStoreOnClient } from './adapters/kurrentEventStore.ts';
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
export { createAccessTokens } from './auth/jwt.ts';
export { createSessionService } from './auth/sessionService.ts';
export { createRefreshTokenCodec, deriveRefreshKey } from './auth/refreshTokens.ts';
export { createApiKeyHandlers } from './auth/apiKeyHandlers.ts';
export { createApiKeyDirectory } from './auth/apiKeyDirectory.ts';
export { createApiKeyResolver } from './auth/apiKeyResolver.ts';
export { API_KEY_USAGE_INTERVAL_MS, createInMemoryApiKeyUsageStore } from './auth/apiKeyUsage.ts';
export { generateApiKey, hashApiKey } from './auth/apiKeyFormat.ts';
export { formatApiKeyAuditJsonLines, formatApiKeyAuditTable, parseAuditTime, readApiKeyAudit } from './auth/apiKeyAudit.ts';
export { setUserPassword } from './auth/setUserPassword.ts';
export { createRedisLoginThrottleStore } from './adapters/redisLoginThrottleStore.ts';
export { createRedisApiKeyUsageStore } from './adapters/redisApiKeyUsageStore.ts';

export type { SqliteEventStoreOptions } from './adapters/sqliteEventStore.ts';
export type { KurrentEventStoreOptions } from './adapters/kurrentEventStore.ts';
export type { KurrentClient } from './adapters/kurrentLogReader.ts';
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
export type { AccessTokenClaims, AccessTokens } from './auth/jwt.ts';
export type { RefreshOutcome, SessionConfig, SessionService, SessionServiceDeps, StartedFamily } from './auth/sessionService.ts';
export type { RefreshTokenCodec } from './auth/refreshTokens.ts';
export type { ApiKeyCommandType, ApiKeyHandlerDeps, ApiKeyLimits } from './auth/apiKeyHandlers.ts';
export type { ApiKeyResolver } from './auth/apiKeyResolver.ts';
export type { ApiKeyUsageStore } from './auth/apiKeyUsage.ts';
export type { GeneratedApiKey } from './auth/apiKeyFormat.ts';
export type { ApiKeyAuditEntry, ApiKeyAuditFilter } from './auth/apiKeyAudit.ts';
export type { RedisLoginThrottleStoreDeps } from './adapters/redisLoginThrottleStore.ts';
export type { RedisApiKeyUsageStoreDeps } from './adapters/redisApiKeyUsageStore.ts';
