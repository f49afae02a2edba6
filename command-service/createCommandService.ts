import type { Logger } from 'pino';
import { invariant } from '../contracts/index.ts';
import type {
  Authenticator,
  Clock,
  CommandGateway,
  EventStore,
  Position,
  Principal,
  RoleHandle,
  SystemState,
  SystemStateSource,
} from '../contracts/index.ts';
import { createAuthenticator } from './auth/authenticator.ts';
import type { LoginThrottleStore } from './auth/loginThrottle.ts';
import { createCommandGateway } from './commandGateway.ts';
import type { CommandHandlers, HandlerDeps } from './commandHandler.ts';
import { createDirectoryHandlers } from './handlers/directoryHandlers.ts';
import type { DirectoryCommandType } from './handlers/directoryHandlers.ts';
import { createOrganizationHandlers } from './handlers/organizationHandlers.ts';
import type { OrganizationCommandType } from './handlers/organizationHandlers.ts';
import { newId as defaultNewId } from './ids.ts';
import { ensureAdminUser } from './seedAdmin.ts';

export type CommandServiceConfig = {
  readonly jwtSecret: string;
  readonly accessTokenTtlSeconds: number;
  readonly loginMaxFailures: number;
  readonly loginMaxFailuresPerIp: number;
  readonly loginWindowMs: number;
  /** Password of `admin` when it is created on an empty event store. */
  readonly adminPassword: string;
};

/** Commands on branch content (tables, rows, commits, reverts), handled by command-service/branches. */
type BranchContentCommandType = Exclude<keyof CommandHandlers, DirectoryCommandType | OrganizationCommandType>;
type BranchContentHandlers = Pick<CommandHandlers, BranchContentCommandType>;

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
  /** API-key lookup (API keys issue); default: every key is unknown. */
  readonly resolveApiKey?: (key: string, state: SystemState) => Promise<Principal | null>;
  /** Refresh-family revocation (sessions issue); default: never revoked. */
  readonly isFamilyRevoked?: (sid: string) => boolean | Promise<boolean>;
};

export type CommandService = RoleHandle & {
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
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

  const handlers: CommandHandlers = {
    ...branchHandlers,
    ...createDirectoryHandlers(handlerDeps),
    ...createOrganizationHandlers(handlerDeps),
  };
  const appended = (position: Position): void => {
    systemState.appended?.(position);
    deps.onAppended?.(position);
  };
  const gateway = createCommandGateway({ handlers, log, onAppended: appended });
  const authenticator = createAuthenticator({
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
    ...(deps.resolveApiKey ? { resolveApiKey: deps.resolveApiKey } : {}),
    ...(deps.isFamilyRevoked ? { isFamilyRevoked: deps.isFamilyRevoked } : {}),
  });

  return {
    name: 'command',
    gateway,
    authenticator,
    systemState,
    async start() {
      await ensureAdminUser({ eventStore, systemState, adminPassword: config.adminPassword, clock, log, newId });
      await systemState.current();
    },
    // Nothing runs in the background: every command catches the system state up on its own.
    async stop() {},
  };
}
