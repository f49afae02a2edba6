import type { Request } from 'express';
import { AppError, isJsonTextTooDeep, isPlainObject, tooDeepJsonError } from '../../../contracts/index.ts';
import { searchParamsOf } from '../../http/queryParams.ts';
import type { GraphqlParams } from './executeGenerated.ts';

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}

function queryText(value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw badRequest('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.');
  }
  return value;
}

function variablesOf(value: unknown, where: string): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw badRequest(`\`variables\` in a ${where} should be provided as an object.`);
  return value;
}

function operationNameOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest('`operationName` in a GraphQL request must be a string.');
  return value;
}

/**
 * GraphQL over HTTP (generated-api.md §5.3) as Apollo Server reads it: POST `{query, variables?, operationName?}`
 * (a JSON array is a batch: 400), GET/HEAD `?query=&variables=<JSON>&operationName=`. Null for GET/HEAD without
 * `query` (the IDE page). Failures are 400 BAD_REQUEST.
 */
export function graphqlParamsOf(req: Request): GraphqlParams | null {
  if (req.method === 'POST') {
    const body: unknown = req.body;
    if (Array.isArray(body)) throw badRequest('Batched GraphQL requests are not supported');
    if (!isPlainObject(body)) throw badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
    return {
      query: queryText(body.query),
      variables: variablesOf(body.variables, 'POST body'),
      operationName: operationNameOf(body.operationName),
    };
  }
  const params = searchParamsOf(req);
  const query = params.get('query');
  if (query === null) return null;
  const variablesText = params.get('variables');
  let variables: unknown;
  if (variablesText !== null) {
    if (isJsonTextTooDeep(variablesText)) throw tooDeepJsonError('`variables`');
    try {
      variables = JSON.parse(variablesText) as unknown;
    } catch {
      throw badRequest('`variables` in a GET request must be JSON-encoded.');
    }
  }
  return {
    query: queryText(query),
    variables: variablesOf(variables, 'GET request'),
    operationName: operationNameOf(params.get('operationName') ?? undefined),
  };
}

/** The query text a request carries, for the size limit checked before authentication. */
export function rawQueryOf(req: Request): unknown {
  if (req.method === 'POST') return isPlainObject(req.body) ? req.body.query : undefined;
  return searchParamsOf(req).get('query') ?? undefined;
}
