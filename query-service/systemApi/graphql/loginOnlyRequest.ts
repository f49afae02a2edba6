import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { QUERY_LIMITS } from '../../graphqlKit/queryLimits.ts';

/**
 * Whether a POSTed GraphQL request runs only `login` fields (a mutation selecting `login` and at most
 * `__typename`). Login ignores presented credentials (auth.md §2), so such a request must not fail on a stale
 * `svc_at` cookie or a bad header. Called only after authentication failed, so the extra parse is off the hot path.
 */
export function isLoginOnlyRequest(body: unknown): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: QUERY_LIMITS.maxTokens });
  } catch {
    return false;
  }
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation =
    typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (operation === undefined || operation.operation !== 'mutation') return false;
  const fields = operation.selectionSet.selections;
  return (
    fields.every((s) => s.kind === Kind.FIELD && (s.name.value === 'login' || s.name.value === '__typename')) &&
    fields.some((s) => s.kind === Kind.FIELD && s.name.value === 'login')
  );
}
