import type { Logger } from 'pino';
import { invariant } from '../contracts/index.ts';
import type {
  ApiKeyDirectory,
  Authenticator,
  Clock,
  CommandGateway,
  EventStore,
  OAuthServer,
  OutboundHttp,
  Position,
  Principal,
  RoleHandle,
  Sessions,
  SystemState,
  SystemStateSource,
} from '../contracts/index.ts';
import { createApiKeyDirectory } from './apiKeys/apiKeyDirectory.ts';
import { createApiKeyHandlers } from './apiKeys/apiKeyHandlers.ts';
import type { ApiKeyCommandType } from './apiKeys/apiKeyHandlers.ts';
import { createApiKeyResolver } from './apiKeys/apiKeyResolver.ts';
import { createInMemoryApiKeyUsageStore } from './apiKeys/apiKeyUsage.ts';
import type { ApiKeyUsageStore } from './apiKeys/apiKeyUsage.ts';
import { createAuthenticator } from './authenticator.ts';
import { createAccessTokens } from './sessions/jwt.ts';
import type { LoginThrottleStore } from './sessions/loginThrottle.ts';
import { createOAuthAccessTokens } from './oauth/oauthAccessTokens.ts';
import { createMetadataDocumentLookup } from './oauth/oauthMetadataDocuments.ts';
import { createOAuthServer } from './oauth/oauthServer.ts';
import { createSessionService } from './sessions/sessionService.ts';
import type { RefreshOutcome } from './sessions/sessionService.ts';
import { createCommandGateway } from './commandGateway.ts';
import type { CommandHandlers, HandlerDeps } from './commandHandler.ts';
import { createDirectoryHandlers } from './handlers/directoryHandlers.ts';
import type { DirectoryCommandType } from './handlers/directoryHandlers.ts';
import { createOrganizationHandlers } from './handlers/organizationHandlers.ts';
import type { OrganizationCommandType } from './handlers/organizationHandlers.ts';
import { newId as defaultNewId } from './ids.ts';
import { ensureAdminUser } from './seedAdmin.ts';
import { createWebhookHandlers } from './webhooks/webhookHandlers.ts';
import type { WebhookCommandType } from './webhooks/webhookHandlers.ts';
import { createWebhookSecretBox } from './webhooks/webhookSecrets.ts';

export type CommandServiceConfig = {
  readonly jwtSecret: string;
  readonly accessTokenTtlSeconds: number;
  readonly loginMaxFailures: number;
  readonly loginMaxFailuresPerIp: number;
  readonly loginWindowMs: number;
  /** Password of `admin` when it is created on an empty event store. */
  readonly adminPassword: string;
  /** JWT_REFRESH_TOKEN_TTL_DAYS, default 7. */
  readonly refreshTokenTtlDays?: number;
  /** REFRESH_FAMILY_MAX_AGE_DAYS, default 30. */
  readonly refreshFamilyMaxAgeDays?: number;
  /** JWT_REFRESH_GRACE_PERIOD_MS, default 30000. */
  readonly refreshGracePeriodMs?: number;
  /** API_KEY_MAX_PER_USER, default 10. */
  readonly apiKeyMaxPerUser?: number;
  /** API_KEY_MAX_SERVICE_PER_ORG, default 100. */
  readonly apiKeyMaxServicePerOrg?: number;
  /** OAUTH_ACCESS_TOKEN_TTL_SECONDS, default 3600. */
  readonly oauthAccessTokenTtlSeconds?: number;
  /** OAUTH_REFRESH_TOKEN_TTL_DAYS, default 30. */
  readonly oauthRefreshTokenTtlDays?: number;
  /** OAUTH_MAX_CLIENTS, default 10000. */
  readonly oauthMaxClients?: number;
  /** OAUTH_CIMD_ALLOW_PRIVATE_ADDRESSES, default false. */
  readonly oauthCimdAllowPrivateAddresses?: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES, default false: webhook URLs naming a non-public IP are refused. */
  readonly webhookAllowPrivateAddresses?: boolean;
};

/** Commands on branch content (tables, rows, commits, reverts), handled by command-service/branches. */
type BranchContentCommandType = Exclude<
  keyof CommandHandlers,
  DirectoryCommandType | OrganizationCommandType | ApiKeyCommandType | WebhookCommandType
>;
type BranchContentHandlers = Pick<CommandHandlers, BranchContentCommandType> & {
  /** Brings the write side's decision state up to the log (started with the service, not awaited). */
  readonly warmUp?: () => Promise<void>;
};

export type CommandServiceDeps = {
  readonly eventStore: EventStore;
  /** Shared with the query side; `appended` (when present) learns of this process's appends. */
  readonly systemState: SystemStateSource & { appended?(position: Position): void };
  readonly clock: Clock;
  readonly log: Logger;
  readonly config: CommandServiceConfig;
  /** The branch content handlers, or a factory receiving the same handler deps as every other handler. */
  readonly branchHandlers?: BranchContentHandlers | ((deps: HandlerDeps) => BranchContentHandlers);
  readonly newId?: () => string;
  /** Called after every append (deploy rings the projections through the queue). */
  readonly onAppended?: (position: Position) => void;
  readonly loginThrottleStore?: LoginThrottleStore;
  /** Ephemeral `lastUsedAt` of API keys; default in memory (Redis later). */
  readonly apiKeyUsageStore?: ApiKeyUsageStore;
  /** The client for hosts outside the deployment; without it Client ID Metadata Documents are not fetched (oauth.md §3.2). */
  readonly outboundHttp?: OutboundHttp;
  /** `strata_refresh_total{outcome}`. */
  readonly onRefreshOutcome?: (outcome: RefreshOutcome) => void;
  /** Overrides the API-key lookup (default: keys folded into the system state). */
  readonly resolveApiKey?: (key: string, state: SystemState) => Promise<Principal | null>;
  /** Overrides the refresh-family revocation check of access tokens (default: families in the system state). */
  readonly isFamilyRevoked?: (sid: string, state: SystemState) => boolean | Promise<boolean>;
};

export type CommandService = RoleHandle & {
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  /** Refresh, logout and logout-all (auth.md §7) for the `/api/auth/*` edges. */
  readonly sessions: Sessions;
  /** API-key reads for `myApiKeys`, `serviceApiKeys`, `apiKeyById` and their REST routes. */
  readonly apiKeys: ApiKeyDirectory;
  /** The OAuth authorization server (oauth.md) behind `/oauth/*` and the grant routes. */
  readonly oauth: OAuthServer;
  readonly systemState: SystemStateSource;
};

/** The write side: every command through one gateway, authentication, and the admin seed on start. */
export function createCommandService(deps: CommandServiceDeps): CommandService {
  const { eventStore, systemState, clock, config } = deps;
  const log = deps.log.child({ role: 'command' });
  const newId = deps.newId ?? defaultNewId;
  const handlerDeps: HandlerDeps = { eventStore, systemState, clock, log, newId };
  invariant(deps.branchHandlers !== undefined, 'createCommandService needs branchHandlers (createBranchCommandHandlers)');
  const branchHandlers = typeof deps.branchHandlers === 'function' ? deps.branchHandlers(handlerDeps) : deps.branchHandlers;

  const usage = deps.apiKeyUsageStore ?? createInMemoryApiKeyUsageStore();
  const handlers: CommandHandlers = {
    ...branchHandlers,
    ...createDirectoryHandlers(handlerDeps),
    ...createOrganizationHandlers(handlerDeps),
    ...createApiKeyHandlers({
      ...handlerDeps,
      usage,
      limits: { maxPersonalPerUser: config.apiKeyMaxPerUser ?? 10, maxServicePerOrganization: config.apiKeyMaxServicePerOrg ?? 100 },
    }),
    ...createWebhookHandlers({
      ...handlerDeps,
      secrets: createWebhookSecretBox(config.jwtSecret),
      addressRules: { allowPrivateAddresses: config.webhookAllowPrivateAddresses ?? false },
    }),
  };
  const appended = (position: Position): void => {
    systemState.appended?.(position);
    deps.onAppended?.(position);
  };
  const gateway = createCommandGateway({ handlers, log, onAppended: appended });
  const accessTokens = createAccessTokens({
    secret: config.jwtSecret,
    ttlSeconds: config.accessTokenTtlSeconds,
    clock,
    isFamilyRevoked: (sid, state) => (deps.isFamilyRevoked ?? sessions.isFamilyRevoked)(sid, state),
  });
  const sessions = createSessionService({
    eventStore,
    systemState,
    clock,
    log,
    accessTokens,
    newId,
    onAppended: appended,
    ...(deps.onRefreshOutcome ? { onRefreshOutcome: deps.onRefreshOutcome } : {}),
    config: {
      jwtSecret: config.jwtSecret,
      refreshTokenTtlDays: config.refreshTokenTtlDays ?? 7,
      familyMaxAgeDays: config.refreshFamilyMaxAgeDays ?? 30,
      graceMs: config.refreshGracePeriodMs ?? 30_000,
      oauthRefreshTokenTtlDays: config.oauthRefreshTokenTtlDays ?? 30,
    },
  });
  const oauthAccessTokens = createOAuthAccessTokens({ secret: config.jwtSecret, ttlSeconds: config.oauthAccessTokenTtlSeconds ?? 3600, clock });
  const oauth = createOAuthServer({
    systemState,
    sessions,
    accessTokens: oauthAccessTokens,
    clock,
    log,
    newId,
    secret: config.jwtSecret,
    ...(deps.outboundHttp
      ? {
          metadataDocuments: createMetadataDocumentLookup({
            clock,
            log,
            allowPrivateAddresses: config.oauthCimdAllowPrivateAddresses ?? false,
            outboundHttp: deps.outboundHttp,
          }),
        }
      : {}),
    config: {
      refreshTokenTtlDays: config.oauthRefreshTokenTtlDays ?? 30,
      familyMaxAgeDays: config.refreshFamilyMaxAgeDays ?? 30,
      maxClients: config.oauthMaxClients ?? 10_000,
    },
  });
  const authenticator = createAuthenticator({
    accessTokens,
    oauthAccessTokens,
    sessions,
    resolveApiKey: deps.resolveApiKey ?? createApiKeyResolver({ clock, log, usage }),
    systemState,
    jwtSecret: config.jwtSecret,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    loginThrottle: {
      maxFailures: config.loginMaxFailures,
      maxFailuresPerIp: config.loginMaxFailuresPerIp,
      windowMs: config.loginWindowMs,
      ...(deps.loginThrottleStore ? { store: deps.loginThrottleStore } : {}),
    },
    clock,
    log,
    newId,
  });

  return {
    name: 'command',
    gateway,
    authenticator,
    sessions,
    apiKeys: createApiKeyDirectory({ systemState, clock, usage }),
    oauth,
    systemState,
    async start() {
      await ensureAdminUser({ eventStore, systemState, adminPassword: config.adminPassword, clock, log, newId });
      await systemState.current();
      // A new or deleted DATA_DIR/state.db fills from the log while the service already listens; the first branch
      // write waits for the same run (versioned-storage.md §2).
      branchHandlers.warmUp?.().catch((err: unknown) => log.error({ err }, 'decision state catch-up failed'));
    },
    // Nothing else runs in the background: every command catches the system state up on its own.
    async stop() {},
  };
}
