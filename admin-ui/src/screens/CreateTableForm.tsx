import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import { CreateTableDocument } from '../api/generated/operations.ts';
import { useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { TextField } from '../components/Fields.tsx';
import { ErrorBox } from '../components/Status.tsx';
import { toSchema } from '../lib/schemaDraft.ts';
import { revisionPath, type RevisionAddress } from './revisionContext.ts';
import { SchemaModes, useSchemaModes } from './schemaEditor/SchemaModes.tsx';
import { useTableIds } from './SchemaSection.tsx';

/** A new table starts with one text field, edited like any field (renamed, retyped, or removed). */
const STARTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: { type: 'string', default: '' } },
};

type CreateTableProps = { readonly address: RevisionAddress; readonly revisionId: string; readonly onCreated: () => Promise<void> };

/**
 * A new table in the draft (admin-ui.md §3.2 Create table): its id and schema, built field by field with the schema
 * editor from the start, or written as JSON in the second mode; the server's schema errors appear at their field.
 */
export function CreateTableForm({ address, revisionId, onCreated }: CreateTableProps) {
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const [tableId, setTableId] = useState('');
  const schema = useSchemaModes(STARTER_SCHEMA);
  const tables = useTableIds(revisionId, true);
  const value = schema.mode === 'visual' ? (schema.problems.size > 0 ? null : toSchema(schema.draft)) : schema.parsed;
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (value === null) return;
    const id = tableId.trim();
    const done = await action.run(() => api.request(CreateTableDocument, { data: { revisionId, tableId: id, schema: value } }));
    if (done) {
      await onCreated();
      navigation.navigate(revisionPath(address, 'table', id));
    }
  };
  const details = action.error instanceof ApiError && action.error.code === 'INVALID_SCHEMA' ? action.error.details : [];
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-table-title">
      <h3 id="create-table-title">Create a table</h3>
      <TextField label="Table id" value={tableId} onChange={setTableId} required maxLength={64} />
      <SchemaModes
        state={schema}
        tableId={tableId.trim()}
        tables={tables}
        details={details}
        jsonDetails={details}
        jsonLabel="Schema (JSON Schema subset)"
        jsonHint="An object schema: every property needs a type and a default; required lists every property."
        onModeChange={action.clear}
      />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || tableId.trim() === '' || value === null}>
        Create table
      </button>
    </form>
  );
}
