export { createSqliteEventStore } from './adapters/sqliteEventStore.ts';
/**
 * The KurrentDB adapter, imported when a deployment chooses it: its client (gRPC, protobuf) is ~8 MB of heap and
 * ~30 MB of RSS that a process on the SQLite log never uses (docs/reference/performance.md "Memory").
 */
export const loadKurrentEventStore = () => import('./adapters/kurrentEventStore.ts');
export { createCommandService } from './createCommandService.ts';
export { createSystemStateSource } from './state/systemStateSource.ts';
export { findUserByUsername } from './state/findUserByUsername.ts';
export { createInMemoryLoginThrottleStore } from './sessions/loginThrottle.ts';
export { hashPassword, verifyPassword } from './sessions/passwords.ts';
export { createBranchCommandHandlers } from './branches/branchCommandHandlers.ts';
export { formatApiKeyAuditJsonLines, formatApiKeyAuditTable, readApiKeyAudit } from './audit/apiKeyAudit.ts';
export { parseAuditTime } from './audit/auditLog.ts';
export { setUserPassword } from './sessions/setUserPassword.ts';
export { createWebhookSecretBox } from './webhooks/webhookSecrets.ts';
export { createWebhookDisabler } from './webhooks/webhookDisabler.ts';
export { formatWebhookAuditJsonLines, formatWebhookAuditTable, readWebhookAudit } from './audit/webhookAudit.ts';
export { formatOAuthAuditJsonLines, formatOAuthAuditTable, readOAuthAudit } from './audit/oauthAudit.ts';
export { createRedisLoginThrottleStore } from './adapters/redisLoginThrottleStore.ts';
export { createRedisApiKeyUsageStore } from './adapters/redisApiKeyUsageStore.ts';

export type { KurrentClient } from './adapters/kurrentLogReader.ts';
export type { CommandService } from './createCommandService.ts';
export type { LoginThrottleStore } from './sessions/loginThrottle.ts';
export type { ApiKeyAuditFilter } from './audit/apiKeyAudit.ts';
export type { WebhookAuditFilter } from './audit/webhookAudit.ts';
export type { OAuthAuditFilter } from './audit/oauthAudit.ts';
