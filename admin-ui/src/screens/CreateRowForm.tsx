import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import { CreateRowDocument } from '../api/generated/operations.ts';
import type { Table } from '../api/types.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { TextField } from '../components/Fields.tsx';
import { parseJson } from '../components/JsonEditor.tsx';
import { RowDataEditor } from '../components/rowForm/RowDataEditor.tsx';
import { ErrorBox, Notice } from '../components/Status.tsx';
import { defaultValue } from '../lib/schemaModel.ts';

type CreateRowProps = { readonly revisionId: string; readonly table: Table; readonly onCreated: () => Promise<void> };

/** A new row in the draft, starting from the schema's defaults, in the schema's form or as JSON; details at their field. */
export function CreateRowForm({ revisionId, table, onCreated }: CreateRowProps) {
  const api = useApi();
  const action = useAction();
  const initial = JSON.stringify(defaultValue(table.schema), null, 2);
  const [rowId, setRowId] = useState('');
  const [text, setText] = useState(initial);
  const [created, setCreated] = useState<string | null>(null);
  // A schema change brings new defaults.
  useEffect(() => setText(initial), [initial]);
  const parsed = parseJson(text);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!parsed.ok) return;
    const id = rowId.trim();
    setCreated(null);
    const done = await action.run(() => api.request(CreateRowDocument, { data: { revisionId, tableId: table.id, rowId: id, data: parsed.value } }));
    if (done) {
      await onCreated();
      setCreated(id);
      setRowId('');
      setText(initial);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-row-title">
      <h3 id="create-row-title">Add a row</h3>
      <TextField label="Row id" value={rowId} onChange={setRowId} required maxLength={64} />
      <RowDataEditor
        schema={table.schema}
        revisionId={revisionId}
        jsonLabel="Row data (JSON)"
        text={text}
        onText={setText}
        details={action.error instanceof ApiError ? action.error.details : []}
      />
      {action.error !== null && <ErrorBox error={action.error} />}
      {created && <Notice kind="success">Row {created} added.</Notice>}
      <button type="submit" className="primary" disabled={action.busy || rowId.trim() === '' || !parsed.ok}>
        Add row
      </button>
    </form>
  );
}
