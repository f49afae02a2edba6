import { readdirSync, readFileSync } from 'node:fs';
import { buildSchema, type GraphQLSchema } from 'graphql';
import type { DocumentFile } from './documentProblems.ts';

const DOCUMENTS = new URL('../src/api/operations/', import.meta.url);

/** The generated module the app imports its operations from. */
export const GENERATED_MODULE = new URL('../src/api/generated/operations.ts', import.meta.url);

/**
 * The system schema as the server prints it: the golden file its own test keeps equal to the live schema
 * (query-service/systemApi/graphql/systemSchema.unit.test.ts), so checking against it is checking against the server.
 */
export const SYSTEM_SDL = new URL('../../query-service/systemApi/graphql/systemSchema.golden.graphql', import.meta.url);

export function readSystemSchema(): GraphQLSchema {
  return buildSchema(readFileSync(SYSTEM_SDL, 'utf8'));
}

/** Every `.graphql` file of src/api/operations, by name. */
export function readDocumentFiles(): DocumentFile[] {
  return readdirSync(DOCUMENTS)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => ({ file: `admin-ui/src/api/operations/${name}`, source: readFileSync(new URL(name, DOCUMENTS), 'utf8') }));
}
