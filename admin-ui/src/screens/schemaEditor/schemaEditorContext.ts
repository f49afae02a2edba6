import { createContext, useContext } from 'react';
import type { ErrorDetail } from '../../api/apiError.ts';

/** Shared by every field editor of one schema: the tables a foreign key may name, and the server's answer. */
export type SchemaEditorContextValue = {
  readonly tableId: string;
  readonly tables: readonly string[];
  /** INVALID_SCHEMA / INVALID_PATCH details of the last dry run or save; `path` points into the schema. */
  readonly details: readonly ErrorDetail[];
  /** Client-side name problems by `<object pointer>/properties/#<field key>`. */
  readonly nameProblems: ReadonlyMap<string, string>;
};

export const SchemaEditorContext = createContext<SchemaEditorContextValue>({ tableId: '', tables: [], details: [], nameProblems: new Map() });

export function useSchemaEditor(): SchemaEditorContextValue {
  return useContext(SchemaEditorContext);
}

/** Whether a detail at `path` belongs to the node at `pointer` itself (not to one of its fields or items). */
export function ownsDetail(pointer: string, path: string): boolean {
  if (path === pointer) return true;
  if (!path.startsWith(`${pointer}/`)) return false;
  const rest = path.slice(pointer.length);
  return !rest.startsWith('/properties/') && !rest.startsWith('/items');
}
