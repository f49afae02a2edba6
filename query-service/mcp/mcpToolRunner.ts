import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import {
  AppError,
  errorCatalogue,
  invariant,
  isAppError,
  keyScopeOf,
  toErrorBody,
  type Authenticator,
  type CommandGateway,
  type CommandInput,
  type CommandType,
  type SystemState,
  type SystemStateSource,
  type UserRecord,
} from '../../contracts/index.ts';
import { awaitWriteConsistency, type WriteConsistencyOptions } from '../http/writeConsistency.ts';
import type { SystemOperations } from '../systemApi/operations/systemOperations.ts';
import { restReadBody, runRead } from '../systemApi/operations/systemReads.ts';
import { dryRunBody, restWriteBody, systemWrites, type WriteSpec } from '../systemApi/operations/systemWrites.ts';
import type { McpCallContext } from './mcpCallContext.ts';
import type { McpEndpointDocs } from './mcpEndpointDocs.ts';
import { JSON_RPC } from './mcpHttpError.ts';
import { JsonRpcError, createToolArgumentParser, invalidParams, targetFormOf, withoutTarget, type TargetForm } from './mcpToolArguments.ts';
import { mcpTools, writePermissions, type ToolSpec } from './mcpToolCatalog.ts';

export type McpToolRunnerDeps = {
  readonly operations: SystemOperations;
  readonly gateway: CommandGateway;
  readonly authenticator: Authenticator;
  readonly systemState: SystemStateSource;
  /** WRITE_CONSISTENCY wait of each write tool (projections come from the command outcome). */
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
  /** get_graphql_schema / get_openapi_spec; without it those tools answer SERVICE_UNAVAILABLE. */
  readonly docs?: McpEndpointDocs;
  readonly log: Logger;
};

export type McpToolRunner = {
  /** Runs one `tools/call`: a tool result (errors inside the tool included) or a JsonRpcError (-32602, -32603). */
  call(name: string, args: unknown, call: McpCallContext): Promise<CallToolResult>;
};

type Args = Record<string, unknown>;

const SESSION_TOOLS: ReadonlySet<string> = new Set(['login', 'logout', 'me']);

function textResult(body: Readonly<Record<string, unknown>>, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/** A failure inside a tool as a tool result carrying `{code, message, details?}` (errors.md §5). */
function toolError(err: AppError): CallToolResult {
  const { statusCode: _status, ...body } = toErrorBody(err);
  return textResult(err.status >= 500 ? { code: body.code, message: errorCatalogue[err.code].message } : body, true);
}

/** Exact-username lookup through the shared case-insensitive namespace. */
function userByUsername(state: SystemState, username: string): UserRecord | null {
  const entry = state.namespace.get(username.toLowerCase());
  const user = entry?.kind === 'user' ? state.users.get(entry.id) : undefined;
  return user && user.username === username ? user : null;
}

/**
 * The tools of mcp.md §5 over the SAME reads (SystemOperations) and writes (the gateway, through the system write
 * catalogue) as REST and GraphQL; results are the system REST response bodies.
 */
export function createMcpToolRunner(deps: McpToolRunnerDeps): McpToolRunner {
  const { operations, gateway, authenticator, systemState, log } = deps;
  const parseArguments = createToolArgumentParser();
  const byName = new Map(mcpTools.map((spec) => [spec.name, spec]));

  /** §3.3 and §5: anonymous sessions and readOnly keys may call R tools, login, logout and me only. */
  function assertMayCall(spec: ToolSpec, call: McpCallContext): void {
    if (spec.readOnly || SESSION_TOOLS.has(spec.name)) return;
    if (call.principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required: call login or send credentials');
    if (keyScopeOf(call.principal)?.readOnly) {
      throw new AppError('API_KEY_READ_ONLY', `API key is read-only: ${writePermissions[spec.name] ?? spec.name} is not allowed`);
    }
  }

  async function revisionIdOf(target: TargetForm, call: McpCallContext): Promise<string> {
    if (target.kind === 'revision') return target.revisionId;
    const branch = await operations.branch(call, target);
    if (target.revision === 'draft') return branch.draftRevisionId;
    if (target.revision === 'head') return branch.headRevisionId;
    const revision = await operations.revision(call, { revisionId: target.revision });
    if (revision.branchId !== branch.id)
      throw new AppError('REVISION_NOT_FOUND', `Revision "${target.revision}" not found in branch "${target.branchName}"`);
    return revision.id;
  }

  async function login(args: Args, call: McpCallContext): Promise<Args> {
    if (call.hasHeaderCredentials) {
      throw new AppError('BAD_USER_INPUT', 'login cannot be combined with Authorization or X-Api-Key headers: the request is already authenticated');
    }
    const username = args.username as string;
    if (call.binding !== null) {
      // Refused before the password is checked: the session can never change principal.
      const bound = userByUsername(await systemState.current(), username);
      if (bound === null || call.binding.principalKey !== `user:${bound.id}`) {
        throw new AppError('FORBIDDEN', 'Session is bound to another principal; start a new session');
      }
    }
    const result = await authenticator.login({ username, password: args.password as string, clientIp: call.clientIp });
    const user = (await systemState.current()).users.get(result.userId);
    invariant(user !== undefined, 'a logged-in user is in the system state');
    await call.session.bind({
      kind: 'login',
      principalKey: `user:${user.id}`,
      userId: user.id,
      username: user.username,
      tokenVersion: user.tokenVersion,
    });
    return { authenticated: true, user: { id: result.userId, username: result.username } };
  }

  async function read(spec: ToolSpec, name: Parameters<typeof runRead>[1], input: Args, call: McpCallContext): Promise<Args> {
    if (spec.name !== 'get_tables') return (await restReadBody(await runRead(operations, name, call, input))) as Args;
    const { includeSchema, ...rest } = input;
    const page = (await restReadBody(await runRead(operations, name, call, rest))) as { edges: { cursor: string; node: Args }[] };
    if (includeSchema === true) return page as unknown as Args;
    const edges = page.edges.map((edge) => {
      const { schema: _schema, ...node } = edge.node;
      return { ...edge, node };
    });
    return { ...page, edges };
  }

  async function execute(spec: ToolSpec, args: Args, call: McpCallContext): Promise<Args> {
    assertMayCall(spec, call);
    const input = spec.target ? { ...withoutTarget(args), revisionId: await revisionIdOf(targetFormOf(args), call) } : args;
    const { action } = spec;
    switch (action.kind) {
      case 'login':
        return login(args, call);
      case 'logout':
        await call.session.endAfterResponse();
        return { success: true };
      case 'me':
        return call.principal.kind === 'anonymous' ? { authenticated: false } : ((await operations.me(call)) as unknown as Args);
      case 'read':
        return read(spec, action.name, input, call);
      case 'write': {
        const write: WriteSpec<CommandType> = systemWrites[action.name];
        const { dryRun, ...rest } = input;
        if (write.dryRun !== undefined && dryRun === true) {
          // The same command as REST `?dryRun=true`: decided like a real run, nothing appended (domain.md §6 rule 6).
          const preview = await gateway.execute(write.dryRun, write.toCommand(rest) as CommandInput<typeof write.dryRun>, {
            principal: call.principal,
            correlationId: call.requestId,
          });
          return dryRunBody(preview.result) as Args;
        }
        const outcome = await gateway.execute(write.command, write.toCommand(rest), { principal: call.principal, correlationId: call.requestId });
        if (outcome.position !== null) await awaitWriteConsistency(outcome.position, { ...deps.consistency, projections: outcome.projections });
        return restWriteBody(write.output, outcome.result) as Args;
      }
      case 'graphqlSchema':
      case 'openApiSpec': {
        if (deps.docs === undefined) throw new AppError('SERVICE_UNAVAILABLE', 'Generated API documents are not available');
        const endpointId = args.endpointId as string;
        const doc = action.kind === 'graphqlSchema' ? await deps.docs.graphqlSchema(call, endpointId) : await deps.docs.openApiSpec(call, endpointId);
        return doc as Args;
      }
      default: {
        const never: never = action;
        return never;
      }
    }
  }

  return {
    async call(name, rawArgs, call) {
      const spec = byName.get(name);
      if (spec === undefined) throw invalidParams(`Unknown tool: ${name}`);
      const args = parseArguments(spec, rawArgs);
      // §4 is checked before anything runs: a bad target form is -32602, not a tool error.
      if (spec.target) targetFormOf(args);
      try {
        return textResult(await execute(spec, args, call));
      } catch (err) {
        if (isAppError(err)) {
          if (err.status >= 500) log.warn({ err, tool: name, code: err.code }, 'mcp tool failed');
          return toolError(err);
        }
        if (err instanceof JsonRpcError) throw err;
        // Never log the arguments: login passwords, row data.
        log.error({ err, tool: name }, 'mcp tool failed');
        throw new JsonRpcError(JSON_RPC.internalError, 'Internal error');
      }
    },
  };
}
