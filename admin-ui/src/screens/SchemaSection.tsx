import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../api/apiError.ts';
import type { JsonSchema, Table } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { JsonEditor, parseJson } from '../components/JsonEditor.tsx';
import { ErrorBox, Notice } from '../components/Status.tsx';
import { diffSchema } from '../lib/schemaPatch.ts';

const UPDATE_TABLE = `mutation UpdateTable($data: UpdateTableInput!) { updateTable(data: $data) { id } }`;

type SchemaSectionProps = { readonly revisionId: string; readonly table: Table; readonly editable: boolean; readonly onSaved: () => void };

/**
 * The table schema. On the draft it is edited as JSON and saved as a JSON Patch computed against the stored schema
 * (domain.md §6), which migrates every row; the server's details are shown at their JSON Pointers.
 */
export function SchemaSection({ revisionId, table, editable, onSaved }: SchemaSectionProps) {
  const api = useApi();
  const action = useAction();
  const original = useMemo(() => JSON.stringify(table.schema, null, 2), [table.schema]);
  const [text, setText] = useState(original);
  const [saved, setSaved] = useState<number | null>(null);
  // A reload after saving brings the stored schema: edit from there.
  useEffect(() => setText(original), [original]);
  const parsed = parseJson(text);
  const patch = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? diffSchema(table.schema, parsed.value as JsonSchema) : null;

  const save = async (): Promise<void> => {
    if (!patch || patch.length === 0) return;
    setSaved(null);
    const done = await action.run(() => api.graphql(UPDATE_TABLE, { data: { revisionId, tableId: table.id, patches: patch } }));
    if (done) {
      setSaved(patch.length);
      onSaved();
    }
  };
  // INVALID_SCHEMA details point into the schema; INVALID_DATA details (row migration) point into row data.
  const details = action.error instanceof ApiError && action.error.code === 'INVALID_SCHEMA' ? action.error.details : [];

  return (
    <section aria-labelledby="schema-title">
      <h2 id="schema-title">Schema</h2>
      <JsonEditor
        label={editable ? 'Schema (edit and save; rows are migrated)' : 'Schema (read-only)'}
        value={editable ? text : original}
        readOnly={!editable}
        onChange={(value) => {
          setText(value);
          setSaved(null);
        }}
        details={details}
        rows={Math.min(24, original.split('\n').length + 2)}
      />
      {editable && (
        <>
          {patch && patch.length > 0 && (
            <details className="patch-preview">
              <summary>
                {patch.length} change{patch.length === 1 ? '' : 's'} to send as JSON Patch
              </summary>
              <pre className="code">{JSON.stringify(patch, null, 2)}</pre>
            </details>
          )}
          {action.error instanceof ApiError && action.error.code !== 'INVALID_SCHEMA' && action.error.details.length > 0 && (
            <ul className="detail-list" aria-label="Problems">
              {action.error.details.map((detail, index) => (
                <li key={index}>
                  {detail.rowId !== undefined && <>row {detail.rowId} </>}
                  <code>{detail.path || '/'}</code>: {detail.message ?? 'invalid'}
                </li>
              ))}
            </ul>
          )}
          {action.error !== null && <ErrorBox error={action.error} />}
          {saved !== null && <Notice kind="success">Schema saved ({saved} operation{saved === 1 ? '' : 's'}).</Notice>}
          <div className="actions">
            <button type="button" className="primary" disabled={action.busy || !patch || patch.length === 0} onClick={() => void save()}>
              Save schema
            </button>
            <button type="button" disabled={action.busy || text === original} onClick={() => setText(original)}>
              Discard edits
            </button>
          </div>
        </>
      )}
    </section>
  );
}
