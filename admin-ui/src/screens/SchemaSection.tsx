import { useEffect, useMemo } from 'react';
import { ApiError } from '../api/apiError.ts';
import { TableIdsDocument } from '../api/generated/operations.ts';
import type { Table } from '../api/types.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useAction } from '../app/useAction.ts';
import { JsonEditor } from '../components/JsonEditor.tsx';
import { draftPatch } from '../lib/schemaDraftPatch.ts';
import { diffSchema } from '../lib/schemaPatch.ts';
import { SchemaModes, useSchemaModes } from './schemaEditor/SchemaModes.tsx';
import { SchemaSaveBar } from './schemaEditor/SchemaSaveBar.tsx';

type SchemaSectionProps = { readonly revisionId: string; readonly table: Table; readonly editable: boolean; readonly onSaved: () => Promise<void> };

/** The table ids of a revision, as a foreign key may name them. */
export function useTableIds(revisionId: string, wanted: boolean): readonly string[] {
  const ids = useOperation(
    queryKeys.revision(revisionId),
    TableIdsDocument,
    { data: { revisionId, first: 1000 } },
    {
      enabled: wanted,
      select: (d) => d.tables.edges.map((e) => e.node.id),
    },
  );
  return ids.data ?? [];
}

/**
 * The table schema (admin-ui.md §3.1 Schema editor). On the draft it is edited field by field or as JSON (second
 * tab); either way the edit becomes a JSON Patch against the stored schema (domain.md §6), previewed with a dry
 * run, then saved, which migrates every row. The server's details are shown at their field or JSON Pointer.
 */
export function SchemaSection({ revisionId, table, editable, onSaved }: SchemaSectionProps) {
  const action = useAction();
  const original = useMemo(() => JSON.stringify(table.schema, null, 2), [table.schema]);
  const schema = useSchemaModes(table.schema);
  const tableIds = useTableIds(revisionId, editable);
  const { reset } = schema;
  // A save brings the stored schema back through the cache: edit from there.
  useEffect(() => reset(JSON.parse(original) as Table['schema']), [original, reset]);
  const patch = useMemo(() => {
    if (schema.mode === 'visual') return schema.problems.size > 0 ? null : draftPatch(table.schema, schema.draft);
    return schema.parsed ? diffSchema(table.schema, schema.parsed) : null;
  }, [schema.mode, schema.problems, schema.draft, schema.parsed, table.schema]);
  const details =
    action.error instanceof ApiError && (action.error.code === 'INVALID_SCHEMA' || action.error.code === 'INVALID_PATCH') ? action.error.details : [];
  const jsonDetails = action.error instanceof ApiError && action.error.code === 'INVALID_SCHEMA' ? action.error.details : [];

  if (!editable) {
    return (
      <section aria-labelledby="schema-title">
        <h2 id="schema-title">Schema</h2>
        <JsonEditor label="Schema (read-only)" value={original} readOnly rows={Math.min(24, original.split('\n').length + 2)} />
      </section>
    );
  }
  return (
    <section aria-labelledby="schema-title" className="schema-section">
      <h2 id="schema-title">Schema</h2>
      <SchemaModes
        state={schema}
        tableId={table.id}
        tables={tableIds}
        details={details}
        jsonDetails={jsonDetails}
        jsonLabel="Schema (edit and save; rows are migrated)"
        onModeChange={action.clear}
      />
      <SchemaSaveBar
        revisionId={revisionId}
        tableId={table.id}
        patch={patch}
        action={action}
        onDiscard={() => {
          reset(table.schema);
          action.clear();
        }}
        onSaved={onSaved}
      />
    </section>
  );
}
