import { GraphQLError, type ASTVisitor, type ValidationContext } from 'graphql';

/**
 * Validation rule (graphql 17's KnownOperationTypesRule, missing from 16): an operation whose root type the schema
 * lacks — a mutation on a HEAD or pinned schema, any subscription — fails validation (GRAPHQL_VALIDATION_FAILED)
 * instead of execution. Pass it besides `specifiedRules`.
 */
export function knownOperationTypesRule(context: ValidationContext): ASTVisitor {
  const schema = context.getSchema();
  return {
    OperationDefinition(node) {
      const root =
        node.operation === 'query' ? schema.getQueryType() : node.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      if (root === null || root === undefined) {
        context.reportError(new GraphQLError(`Schema is not configured to execute ${node.operation} operation.`, { nodes: node }));
      }
      return false;
    },
  };
}
