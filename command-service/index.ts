export { createSqliteEventStore } from './adapters/sqliteEventStore.ts';
export { createKurrentEventStore, createKurrentEventStoreOnClient } from './adapters/kurrentEventStore.ts';
export { createCommandService } from './createCommandService.ts';
export { createSystemStateSource } from './state/systemStateSource.ts';
export { findUserByUsername } from './auth/authenticator.ts';
export { createInMemoryLoginThrottleStore } from './auth/loginThrottle.ts';
export { hashPassword, verifyPassword } from './auth/passwords.ts';
export { createBranchCommandHandlers } from './branches/branchCommandHandlers.ts';
export {
  formatApiKeyAuditJsonLines,
  formatApiKeyAuditTable,
  parseAuditTime,
  readApiKeyAudit,
} from './auth/apiKeyAudit.ts';
export { setUserPassword } from './auth/setUserPassword.ts';
export { createWebhookSecretBox } from './webhooks/webhookSecrets.ts';
export { createWebhookDisabler } from './webhooks/webhookDisabler.ts';
export { formatWebhookAuditJsonLines, formatWebhookAuditTable, readWebhookAudit } from './webhooks/webhookAudit.ts';
export { formatOAuthAuditJsonLines, formatOAuthAuditTable, readOAuthAudit } from './auth/oauthAudit.ts';
export { createRedisLoginThrottleStore } from './adapters/redisLoginThrottleStore.ts';
export { createRedisApiKeyUsageStore } from './adapters/redisApiKeyUsageStore.ts';

export type { KurrentClient } from './adapters/kurrentLogReader.ts';
export type { CommandService } from './createCommandService.ts';
export type { LoginThrottleStore } from './auth/loginThrottle.ts';
export type { ApiKeyAuditFilter } from './auth/apiKeyAudit.ts';
export type { WebhookAuditFilter } from './webhooks/webhookAudit.ts';
export type { OAuthAuditFilter } from './auth/oauthAudit.ts';
