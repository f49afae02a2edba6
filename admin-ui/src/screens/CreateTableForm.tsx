import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import { useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { TextField } from '../components/Fields.tsx';
import { JsonEditor, parseJson } from '../components/JsonEditor.tsx';
import { ErrorBox } from '../components/Status.tsx';
import { revisionPath, type RevisionAddress } from './revisionContext.ts';

const CREATE_TABLE = `mutation CreateTable($data: CreateTableInput!) { createTable(data: $data) { id } }`;

const STARTER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: { title: { type: 'string', default: '' } },
};

type CreateTableProps = { readonly address: RevisionAddress; readonly revisionId: string; readonly onCreated: () => void };

/** A new table in the draft: its id and JSON Schema (domain.md §5); schema errors are shown at their pointers. */
export function CreateTableForm({ address, revisionId, onCreated }: CreateTableProps) {
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const [tableId, setTableId] = useState('');
  const [schema, setSchema] = useState(() => JSON.stringify(STARTER_SCHEMA, null, 2));
  const parsed = parseJson(schema);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!parsed.ok) return;
    const id = tableId.trim();
    const done = await action.run(() => api.graphql(CREATE_TABLE, { data: { revisionId, tableId: id, schema: parsed.value } }));
    if (done) {
      onCreated();
      navigation.navigate(revisionPath(address, 'table', id));
    }
  };
  const details = action.error instanceof ApiError ? action.error.details : [];
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-table-title">
      <h3 id="create-table-title">Create a table</h3>
      <TextField label="Table id" value={tableId} onChange={setTableId} required maxLength={64} />
      <JsonEditor
        label="Schema (JSON Schema subset)"
        hint="An object schema: every property needs a type and a default; required lists every property."
        value={schema}
        onChange={setSchema}
        details={details}
        rows={12}
      />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || tableId.trim() === '' || !parsed.ok}>
        Create table
      </button>
    </form>
  );
}
