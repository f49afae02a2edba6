import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpCallContext } from './mcpCallContext.ts';
import { JSON_RPC, McpHttpError } from './mcpHttpError.ts';
import { JsonRpcError } from './mcpToolArguments.ts';
import { mcpTools } from './mcpToolCatalog.ts';
import type { McpToolRunner } from './mcpToolRunner.ts';

const readOnlyTools: ReadonlyMap<string, boolean> = new Map(mcpTools.map((spec) => [spec.name, spec.readOnly]));
/** Tools an anonymous session may always call (mcp.md §3.3). */
const SESSION_TOOLS: ReadonlySet<string> = new Set(['login', 'logout', 'me']);

/** HTTP 401, -32002: an anonymous session called a tool that needs a principal (oauth.md §2.1). */
export const authenticationRequired = (): McpHttpError =>
  new McpHttpError(401, JSON_RPC.unauthorized, 'Authentication required', { code: 'UNAUTHENTICATED' });

/** HTTP 403, -32003, insufficient_scope: an OAuth token without `strata:write` called a write tool (step-up). */
export const insufficientScope = (): McpHttpError =>
  new McpHttpError(403, JSON_RPC.forbidden, 'Insufficient scope: this tool needs strata:write', { code: 'FORBIDDEN' });

function toolCallOf(message: JSONRPCMessage | null): { readonly name: string; readonly args: unknown } | null {
  if (message === null || !('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  return typeof params?.name === 'string' ? { name: params.name, args: params.arguments } : null;
}

/**
 * The HTTP-level answers of a tool call (oauth.md §2.1), decided before the SDK transport writes a JSON-RPC result:
 * an anonymous session calling a tool that needs a principal → 401 so OAuth clients start their flow (R tools run
 * here once: a guest-readable result is kept for the transport, an UNAUTHENTICATED one becomes the 401); an OAuth
 * token without `strata:write` calling a write tool → 403 insufficient_scope. Returns the result to reuse, if any.
 */
export async function gateToolCall(runner: McpToolRunner, message: JSONRPCMessage | null, call: McpCallContext): Promise<CallToolResult | null> {
  const tool = toolCallOf(message);
  if (tool === null || SESSION_TOOLS.has(tool.name)) return null;
  const readOnly = readOnlyTools.get(tool.name);
  if (readOnly === undefined) return null;
  const { principal } = call;
  if (principal.kind === 'user' && principal.oauth && !readOnly && principal.key?.readOnly) throw insufficientScope();
  if (principal.kind !== 'anonymous') return null;
  if (!readOnly) throw authenticationRequired();
  let result: CallToolResult;
  try {
    result = await runner.call(tool.name, tool.args, call);
  } catch (err) {
    // Invalid params and the like: the transport runs the call again and answers the JSON-RPC error.
    if (err instanceof JsonRpcError) return null;
    throw err;
  }
  const code = (result.structuredContent as { code?: unknown } | undefined)?.code;
  if (result.isError === true && code === 'UNAUTHENTICATED') throw authenticationRequired();
  return result;
}
