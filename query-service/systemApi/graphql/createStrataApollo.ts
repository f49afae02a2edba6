import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Position } from '../../../contracts/index.ts';
import { JSON_CONTENT_TYPE } from '../../http/sendJson.ts';
import { createGraphqlErrorFormatter } from '../../graphqlKit/graphqlErrors.ts';
import { QUERY_LIMITS, assertOperationLimits, queryLimitsRule, type QueryLimits } from '../../graphqlKit/queryLimits.ts';
import { assertVariablesCoercible } from '../../graphqlKit/variableCoercion.ts';

/** What every Strata GraphQL context carries: the position of the request's last successful mutation. */
export type PositionContext = { position: Position | null };

function strataPlugin<TContext extends PositionContext>(limits: QueryLimits): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          // Validation (cached per query text) counted variables at their defaults; check with this request's.
          if (!operation) return;
          assertOperationLimits(schema, document, operation, request.variables, limits);
          assertVariablesCoercible(schema, operation, request.variables);
        },
        async willSendResponse({ response, contextValue }) {
          response.http.headers.set('content-type', JSON_CONTENT_TYPE);
          if (contextValue.position !== null && response.body.kind === 'single') {
            const result = response.body.singleResult;
            result.extensions = { ...result.extensions, position: contextValue.position };
          }
        },
      };
    },
  };
}

/**
 * An Apollo server with Strata's GraphQL behaviour: errors.md §3 error envelope, operations.md §7 limits (depth,
 * aliases, cost, tokens; documents are parsed and validated once per query text by Apollo's LRU document store),
 * introspection on, no batching, no landing page or tracing, `extensions.position` after mutations. CSRF is
 * Strata's own gate (auth.md §6.1), so Apollo's header-based prevention is off: plain GET queries must work.
 */
export function createStrataApollo<TContext extends PositionContext>(options: {
  readonly schema: GraphQLSchema;
  readonly log: Logger;
  readonly limits?: QueryLimits;
}): ApolloServer<TContext> {
  const limits = options.limits ?? QUERY_LIMITS;
  return new ApolloServer<TContext>({
    schema: options.schema,
    nodeEnv: 'production',
    introspection: true,
    csrfPrevention: false,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    stopOnTerminationSignals: false,
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [queryLimitsRule(limits)],
    formatError: createGraphqlErrorFormatter(options.log),
    logger: options.log,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginUsageReportingDisabled(),
      strataPlugin<TContext>(limits),
    ],
  });
}
