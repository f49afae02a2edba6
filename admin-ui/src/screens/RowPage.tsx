import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import type { JsonSchema, Row } from '../api/types.ts';
import { Link, useNavigation } from '../app/router.tsx';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { TextField } from '../components/Fields.tsx';
import { JsonEditor, parseJson } from '../components/JsonEditor.tsx';
import { RowDataEditor } from '../components/rowForm/RowDataEditor.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { RevisionTabs } from './RevisionTabs.tsx';
import { addressOf, loadRevisionContext, revisionPath, type RevisionAddress } from './revisionContext.ts';

const ROW = `query Row($data: GetRowInput!, $table: GetTableInput!) {
  row(data: $data) { id readonly createdAt updatedAt data }
  table(data: $table) { schema }
}`;
const UPDATE_ROW = `mutation UpdateRow($data: UpdateRowInput!) { updateRow(data: $data) { id } }`;
const RENAME_ROW = `mutation RenameRow($data: RenameRowInput!) { renameRow(data: $data) { id } }`;
const DELETE_ROW = `mutation DeleteRow($data: DeleteRowInput!) { deleteRow(data: $data) }`;

/** One row: on the draft edited with the schema's form or as JSON (validation details inline), read-only elsewhere. */
export function RowPage({ params }: ScreenProps) {
  const address = addressOf(params);
  const tableId = params.table as string;
  const rowId = params.row as string;
  const api = useApi();
  const [version, setVersion] = useState(0);
  const [loaded, reload] = useLoad(async () => {
    const context = await loadRevisionContext(api, address);
    const revisionId = context.revision.id;
    const { row, table } = await api.graphql<{ row: Row; table: { schema: JsonSchema } }>(ROW, { data: { revisionId, tableId, rowId }, table: { revisionId, tableId } });
    return { context, row, schema: table.schema };
  }, [address, tableId, rowId], version);
  return (
    <>
      <PageTitle title={`Row ${rowId}`}>
        <Link to={revisionPath(address, 'table', tableId, 'row', rowId, 'history')} className="button-link">
          History
        </Link>
      </PageTitle>
      <Async value={loaded} what="the row" onRetry={reload}>
        {({ context, row, schema }) => (
          <>
            <RevisionTabs address={address} context={context} />
            <p className="meta">
              Table {tableId} · created <Time value={row.createdAt} /> · updated <Time value={row.updatedAt} />
              {context.editable && (row.readonly ? ' · unchanged since HEAD' : ' · changed in the draft')}
            </p>
            <RowEditor
              address={address}
              revisionId={context.revision.id}
              tableId={tableId}
              row={row}
              schema={schema}
              editable={context.editable}
              onSaved={() => setVersion((v) => v + 1)}
            />
          </>
        )}
      </Async>
    </>
  );
}

type RowEditorProps = {
  readonly address: RevisionAddress;
  readonly revisionId: string;
  readonly tableId: string;
  readonly row: Row;
  readonly schema: JsonSchema;
  readonly editable: boolean;
  readonly onSaved: () => void;
};

function RowEditor({ address, revisionId, tableId, row, schema, editable, onSaved }: RowEditorProps) {
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const original = useMemo(() => JSON.stringify(row.data, null, 2), [row.data]);
  const [text, setText] = useState(original);
  const [nextId, setNextId] = useState(row.id);
  const [saved, setSaved] = useState(false);
  useEffect(() => setText(original), [original]);
  const parsed = parseJson(text);
  const target = { revisionId, tableId, rowId: row.id };

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!parsed.ok) return;
    setSaved(false);
    const done = await action.run(() => api.graphql(UPDATE_ROW, { data: { ...target, data: parsed.value } }));
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
  const rename = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const next = nextId.trim();
    const done = await action.run(() => api.graphql(RENAME_ROW, { data: { ...target, nextRowId: next } }));
    if (done) navigation.navigate(revisionPath(address, 'table', tableId, 'row', next), { replace: true });
  };
  const remove = async (): Promise<void> => {
    const done = await action.run(() => api.graphql(DELETE_ROW, { data: target }));
    if (done) navigation.navigate(revisionPath(address, 'table', tableId));
  };

  if (!editable) return <JsonEditor label="Row data (read-only)" value={original} readOnly rows={Math.min(24, original.split('\n').length + 2)} />;
  return (
    <>
      <form className="form" onSubmit={(event) => void save(event)} aria-label="Edit row data">
        <RowDataEditor
          schema={schema}
          revisionId={revisionId}
          jsonLabel="Row data (JSON)"
          text={text}
          onText={(value) => {
            setText(value);
            setSaved(false);
          }}
          details={action.error instanceof ApiError ? action.error.details : []}
        />
        {action.error !== null && <ErrorBox error={action.error} />}
        {saved && <Notice kind="success">Row saved.</Notice>}
        <div className="actions">
          <button type="submit" className="primary" disabled={action.busy || !parsed.ok || text === original}>
            Save row
          </button>
          <button type="button" disabled={action.busy || text === original} onClick={() => setText(original)}>
            Discard edits
          </button>
        </div>
      </form>
      <section className="card" aria-labelledby="row-actions-title">
        <h2 id="row-actions-title">Row settings</h2>
        <form className="form-row" onSubmit={(event) => void rename(event)}>
          <TextField label="Row id" value={nextId} onChange={setNextId} required maxLength={64} />
          <button type="submit" disabled={action.busy || nextId.trim() === '' || nextId.trim() === row.id}>
            Rename row
          </button>
        </form>
        <ConfirmButton label="Delete row" title={`Delete row ${row.id}?`} confirmLabel="Delete row" danger disabled={action.busy} onConfirm={remove}>
          <p>The row is removed from the draft.</p>
        </ConfirmButton>
      </section>
    </>
  );
}
