import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { invariant } from '../../contracts/index.ts';
import type { RequestContext } from '../systemApi/operations/systemOperations.ts';
import type { McpBinding } from './mcpSessionStore.ts';

/** What a tool may do to its own session. */
export type McpSessionControl = {
  /** Binds the session (password login); other sessions of the principal beyond the limit end. */
  bind(binding: McpBinding): Promise<void>;
  /** Ends the session once the current response is sent (logout): the id gets 404 from now on. */
  endAfterResponse(): Promise<void>;
};

/** Everything a tool call knows about the HTTP request that carries it. Never holds the session id. */
export type McpCallContext = RequestContext & {
  readonly clientIp: string;
  /** The request carried Authorization or X-Api-Key (login is then refused). */
  readonly hasHeaderCredentials: boolean;
  /** The session's binding as of this request. */
  readonly binding: McpBinding | null;
  readonly session: McpSessionControl;
  /** The result of a tool call the router already ran for an anonymous session (mcpToolGate.ts): reused, not rerun. */
  readonly precomputed?: CallToolResult;
};

/** The call context travels to the SDK's request handlers as `authInfo.extra` of the HTTP request. */
export function authInfoOf(call: McpCallContext): AuthInfo {
  return { token: '', clientId: 'strata', scopes: [], extra: { strataCall: call } };
}

export function callContextOf(authInfo: AuthInfo | undefined): McpCallContext {
  const call = authInfo?.extra?.strataCall as McpCallContext | undefined;
  invariant(call !== undefined, 'every /mcp request carries its call context');
  return call;
}
