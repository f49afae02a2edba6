import express, { type Request, type Response, type Router } from 'express';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import {
  isAppError,
  principalRef,
  systemClock,
  type Authenticator,
  type Clock,
  type CommandGateway,
  type SystemStateSource,
} from '../../contracts/index.ts';
import { LOCAL_HOSTS_ONLY, type HostPolicy } from '../http/hostPolicy.ts';
import { setRouteTemplate } from '../http/routeTemplate.ts';
import type { WriteConsistencyOptions } from '../http/writeConsistency.ts';
import type { SystemOperations } from '../systemApi/operations/systemOperations.ts';
import '../http/expressTypes.ts';
import { createMcpSessionServer } from './createMcpSessionServer.ts';
import { authenticateMcpRequest, bindingAlive, type McpRequestAuth } from './mcpAuthentication.ts';
import { authInfoOf, type McpCallContext } from './mcpCallContext.ts';
import { mcpInsufficientScopeChallenge, mcpUnauthorizedChallenge } from '../oauth/oauthIssuer.ts';
import { ownOriginOf } from '../http/csrfGate.ts';
import { authenticationRequired, gateToolCall } from './mcpToolGate.ts';
import type { McpEndpointDocs } from './mcpEndpointDocs.ts';
import { JSON_RPC, McpHttpError, badRequest, sendMcpError, serviceUnavailable, sessionNotFound } from './mcpHttpError.ts';
import {
  assertNoQueryCredentials,
  assertOriginAllowed,
  assertProtocolVersion,
  negotiateProtocolVersion,
  readJsonRpcMessage,
} from './mcpRequestChecks.ts';
import { createMcpSessionRegistry, type LiveSession } from './mcpSessionRegistry.ts';
import type { McpBinding, McpSessionLimits, McpSessionStore } from './mcpSessionStore.ts';
import { createMcpToolRunner } from './mcpToolRunner.ts';

export type McpConfig = {
  /** MCP_SESSION_IDLE_MS. */
  readonly sessionIdleMs: number;
  /** MCP_SESSION_MAX_AGE_MS. */
  readonly sessionMaxAgeMs: number;
  /** MCP_MAX_SESSIONS. */
  readonly maxSessions: number;
  /** Sessions per principal (mcp.md §2: 10). */
  readonly maxSessionsPerPrincipal: number;
  /** MCP_MAX_ANONYMOUS_SESSIONS_PER_IP. */
  readonly maxAnonymousSessionsPerIp: number;
  /** MCP_ANONYMOUS_SESSION_IDLE_MS. */
  readonly anonymousSessionIdleMs: number;
  /** PUBLIC_URL (own origin); null → derived per request. */
  readonly publicUrl: string | null;
  /** CORS_ORIGIN: other allowed `Origin` values. */
  readonly corsOrigins: readonly string[];
  /** ALLOWED_HOSTS and PUBLIC_URL's host: the hosts the own origin may be derived from (auth.md §6.4). */
  readonly hosts: HostPolicy;
  /** BODY_LIMIT. */
  readonly bodyLimitBytes: number;
  readonly bodyLimitText: string;
  /** Product version for `serverInfo.version`. */
  readonly version: string;
  /** OAUTH_ENABLED: OAuth tokens for `{base}/mcp` are accepted and 401s carry `resource_metadata` (oauth.md §2.1). */
  readonly oauthEnabled?: boolean;
  /** MCP_ANONYMOUS_SESSIONS (default true): false → `initialize` without a credential is 401. */
  readonly anonymousSessions?: boolean;
};

/** Defaults of operations.md §1 / mcp.md §2. */
export const MCP_CONFIG_DEFAULTS = {
  sessionIdleMs: 1_800_000,
  sessionMaxAgeMs: 43_200_000,
  maxSessions: 1000,
  maxSessionsPerPrincipal: 10,
  maxAnonymousSessionsPerIp: 20,
  anonymousSessionIdleMs: 300_000,
  publicUrl: null,
  corsOrigins: [],
  hosts: LOCAL_HOSTS_ONLY,
} as const satisfies Partial<McpConfig>;

export type McpRouterDeps = {
  readonly operations: SystemOperations;
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  readonly systemState: SystemStateSource;
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  readonly log: Logger;
  readonly config: McpConfig;
  /** Session records (in memory, or a Redis store when REDIS_URL is set), kept within `mcpSessionLimitsOf(config)`. */
  readonly store: McpSessionStore;
  readonly clock?: Clock;
  /** Documents of generated endpoints for get_graphql_schema / get_openapi_spec. */
  readonly docs?: McpEndpointDocs;
};

export type McpEndpoint = {
  /** Serves `POST/GET/DELETE /` (mount it at `/mcp`). */
  readonly router: Router;
  /** Live sessions served by this process (strata_mcp_sessions_active). */
  activeSessions(): number;
  /** Stops the sweeper and ends every session of this process. */
  close(): Promise<void>;
};

type RpcId = string | number | null;

function sessionIdOf(req: Request): string {
  const id = req.headers['mcp-session-id'];
  if (typeof id !== 'string' || id === '') throw badRequest('Bad Request: Mcp-Session-Id header is required');
  return id;
}

/** Runs `run` once the response is out (logout answers first). */
function afterResponse(res: Response, run: () => void): void {
  if (res.writableEnded) run();
  else res.once('close', run);
}

/** The session limits of `config`, for the in-memory session store. */
export function mcpSessionLimitsOf(config: McpConfig): McpSessionLimits {
  return {
    idleMs: config.sessionIdleMs,
    maxAgeMs: config.sessionMaxAgeMs,
    maxSessions: config.maxSessions,
    maxPerPrincipal: config.maxSessionsPerPrincipal,
    anonymousIdleMs: config.anonymousSessionIdleMs,
    maxAnonymousPerIp: config.maxAnonymousSessionsPerIp,
  };
}

/**
 * The MCP endpoint (mcp.md): Streamable HTTP with one SDK transport and server per session, session records in an
 * McpSessionStore, header or password-login authentication re-checked on every request, and tools over the same
 * operations and gateway as the system API. Session ids are never logged.
 */
export function createMcpRouter(deps: McpRouterDeps): McpEndpoint {
  const { config, authenticator, systemState } = deps;
  const log = deps.log.child({ component: 'mcp' });
  const clock = deps.clock ?? systemClock;
  const { store } = deps;
  const originPolicy = { publicUrl: config.publicUrl, corsOrigins: config.corsOrigins, hosts: config.hosts };
  const runner = createMcpToolRunner({ ...deps, log });
  const sessions = createMcpSessionRegistry({
    store,
    clock,
    log,
    newServer: () => createMcpSessionServer({ version: config.version, runner }),
  });
  const sweepEveryMs = Math.min(60_000, Math.max(250, Math.floor(Math.min(config.sessionIdleMs, config.anonymousSessionIdleMs) / 2)));
  const sweeper = setInterval(() => {
    sessions.sweep().catch((err: unknown) => log.warn({ err }, 'mcp session sweep failed'));
  }, sweepEveryMs);
  sweeper.unref();

  /** Hands the request to the session's transport with the call context its tools need. */
  async function serve(
    req: Request,
    res: Response,
    session: LiveSession,
    auth: McpRequestAuth,
    binding: McpBinding | null,
    message: JSONRPCMessage | null,
  ): Promise<void> {
    res.locals.principalRef = principalRef(auth.principal);
    const base: McpCallContext = {
      principal: auth.principal,
      requestId: res.locals.requestId ?? 'unknown',
      clientIp: req.ip ?? '',
      hasHeaderCredentials: auth.hasHeaderCredentials,
      binding,
      session: sessions.control(session.id),
    };
    const precomputed = await gateToolCall(runner, message, base);
    const call: McpCallContext = precomputed === null ? base : { ...base, precomputed };
    (req as Request & { auth?: ReturnType<typeof authInfoOf> }).auth = authInfoOf(call);
    await session.transport.handleRequest(req, res, message ?? undefined);
    if (session.ending) {
      afterResponse(res, () => {
        sessions.end(session.id).catch((err: unknown) => log.warn({ err }, 'mcp session end failed'));
      });
    }
  }

  async function initialize(req: Request, res: Response, message: JSONRPCMessage): Promise<void> {
    // Checked before a session exists, so a refused initialize binds (and evicts) nothing.
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      throw new McpHttpError(406, JSON_RPC.serverError, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    }
    const auth = await authenticateMcpRequest(authenticator, req, null, oauthResourceOf(req));
    if (auth.principal.kind === 'anonymous' && config.anonymousSessions === false) throw authenticationRequired();
    const params = 'params' in message ? (message.params as { protocolVersion?: unknown } | undefined) : undefined;
    const session = await sessions.open(auth.newBinding, negotiateProtocolVersion(params?.protocolVersion), req.ip ?? '');
    await serve(req, res, session, auth, auth.newBinding, message);
    // The transport refused the initialize (e.g. 406 Accept): no session was established.
    if (session.transport.sessionId === undefined) await sessions.end(session.id);
  }

  async function continueSession(req: Request, res: Response, message: JSONRPCMessage | null): Promise<void> {
    const id = sessionIdOf(req);
    const found = await sessions.find(id);
    if (found === null) throw sessionNotFound();
    assertProtocolVersion(req);
    if (!bindingAlive(await systemState.current(), found.record.binding)) {
      await sessions.end(id);
      throw sessionNotFound();
    }
    const auth = await authenticateMcpRequest(authenticator, req, found.record, oauthResourceOf(req));
    if (auth.newBinding !== null) await sessions.bind(id, auth.newBinding);
    await sessions.touch(id);
    await serve(req, res, found.live, auth, auth.newBinding ?? found.record.binding, message);
  }

  /** `{base}` of this request when OAuth is on (the issuer, oauth.md §1), else null. */
  const oauthBaseOf = (req: Request): string | null => (config.oauthEnabled ? ownOriginOf(req, config.publicUrl, config.hosts) : null);
  const oauthResourceOf = (req: Request): string | undefined => {
    const base = oauthBaseOf(req);
    return base === null ? undefined : `${base}/mcp`;
  };
  /** Every 401 carries resource_metadata, the step-up 403 its insufficient_scope challenge (oauth.md §2.1). */
  function withChallenge(req: Request, err: McpHttpError): McpHttpError {
    const stepUp = err.status === 403 && err.message.startsWith('Insufficient scope');
    if (err.status !== 401 && !stepUp) return err;
    const challenge = stepUp
      ? mcpInsufficientScopeChallenge(oauthBaseOf(req))
      : mcpUnauthorizedChallenge(oauthBaseOf(req), err.data !== undefined && err.data.code !== 'UNAUTHENTICATED');
    return new McpHttpError(err.status, err.rpcCode, err.message, err.data, { ...err.headers, 'WWW-Authenticate': challenge });
  }

  const router = express.Router();
  router.all('/', async (req: Request, res: Response) => {
    setRouteTemplate(res, '/mcp');
    let rpcId: RpcId = null;
    try {
      assertOriginAllowed(req, originPolicy);
      assertNoQueryCredentials(req);
      if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') {
        throw new McpHttpError(405, JSON_RPC.serverError, 'Method not allowed', undefined, { Allow: 'GET, POST, DELETE' });
      }
      const message = req.method === 'POST' ? await readJsonRpcMessage(req, config.bodyLimitBytes, config.bodyLimitText) : null;
      rpcId = message !== null && 'id' in message ? (message.id ?? null) : null;
      if (message !== null && isInitializeRequest(message)) await initialize(req, res, message);
      else await continueSession(req, res, message);
    } catch (err) {
      if (err instanceof McpHttpError) {
        sendMcpError(res, withChallenge(req, err), rpcId);
        return;
      }
      // The session store (Redis) or the event store is unreachable: a 503 the client retries, not a bug.
      if (isAppError(err, 'SERVICE_UNAVAILABLE')) {
        sendMcpError(res, serviceUnavailable(), rpcId);
        return;
      }
      (req.log ?? log).error({ err }, 'mcp request failed');
      sendMcpError(res, new McpHttpError(500, JSON_RPC.internalError, 'Internal error'), rpcId);
    }
  });

  return {
    router,
    activeSessions: () => sessions.size,
    async close() {
      clearInterval(sweeper);
      await sessions.closeAll();
    },
  };
}
