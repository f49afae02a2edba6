import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { callContextOf } from './mcpCallContext.ts';
import { negotiateProtocolVersion } from './mcpRequestChecks.ts';
import { MCP_INSTRUCTIONS, mcpTools, toolListing } from './mcpToolCatalog.ts';
import type { McpToolRunner } from './mcpToolRunner.ts';

const CAPABILITIES = { tools: { listChanged: false } };

/** The `tools/list` answer: the same for every session, built once. */
export const mcpToolListing = mcpTools.map(toolListing);

/**
 * The MCP server of ONE session (the SDK binds a server to one transport): initialize with our protocol versions
 * (mcp.md §1), the static tool list, and tool calls through the runner with the HTTP request's call context.
 */
export function createMcpSessionServer(options: { readonly version: string; readonly runner: McpToolRunner }): Server {
  const serverInfo = { name: 'strata', version: options.version };
  const server = new Server(serverInfo, { capabilities: CAPABILITIES, instructions: MCP_INSTRUCTIONS });
  // The SDK's own initialize answers every version it knows; ours supports only mcp.md §1's.
  server.setRequestHandler(InitializeRequestSchema, (request) => ({
    protocolVersion: negotiateProtocolVersion(request.params.protocolVersion),
    capabilities: CAPABILITIES,
    serverInfo,
    instructions: MCP_INSTRUCTIONS,
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpToolListing }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const call = callContextOf(extra.authInfo);
    return call.precomputed ?? options.runner.call(request.params.name, request.params.arguments, call);
  });
  return server;
}
