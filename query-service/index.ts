export { commonHeaders } from './http/commonHeaders.ts';
export { sendJson } from './http/sendJson.ts';
export { errorHandler, sendError } from './http/sendError.ts';
export { jsonBody } from './http/jsonBody.ts';
export { requestLogger, type RequestLineWriter } from './http/requestLogger.ts';
export { routeTemplateOf, setRouteTemplate } from './http/routeTemplate.ts';
export { methodNotAllowed, notFound } from './http/routeFallbacks.ts';
export { hostGuard } from './http/hostPolicy.ts';

export { createQueryService } from './createQueryService.ts';
export { createChangeEventSource } from './changes/changeEventSource.ts';
export { createMergeService } from './merge/mergeService.ts';
export { MCP_CONFIG_DEFAULTS } from './mcp/createMcpRouter.ts';
export { createInMemoryMcpSessionStore } from './adapters/inMemoryMcpSessionStore.ts';
export { createRedisMcpSessionStore } from './adapters/redisMcpSessionStore.ts';
export type { McpConfig } from './mcp/createMcpRouter.ts';
export type { McpBinding, McpSessionLimits, McpSessionRecord, McpSessionStore } from './mcp/mcpSessionStore.ts';

export { createSystemOperations, resolveConnection } from './systemApi/operations/systemOperations.ts';
export type { LazyConnection, RequestContext, SystemOperations } from './systemApi/operations/systemOperations.ts';
export type { HostPolicy } from './http/hostPolicy.ts';
export type { FastRoutes } from './http/fastRoutes.ts';
export { SURFACES, destinationOf, surfaceOf } from './http/routeTable.ts';
export type { Destination } from './http/routeTable.ts';
export type { GraphqlExecutionConfig } from './generatedApi/serve/compiledOperations.ts';
