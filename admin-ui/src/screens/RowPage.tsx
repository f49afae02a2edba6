import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import { DeleteRowDocument, RenameRowDocument, RowDocument, UpdateRowDocument } from '../api/generated/operations.ts';
import type { JsonSchema, Row } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useLoaded } from '../app/queries.ts';
import { Link, useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { TextField } from '../components/Fields.tsx';
import { JsonEditor, parseJson } from '../components/JsonEditor.tsx';
import { RowDataEditor } from '../components/rowForm/RowDataEditor.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { RevisionTabs } from './RevisionTabs.tsx';
import { addressOf, loadRevisionContext, revisionPath, revisionScreenKey, type RevisionAddress } from './revisionContext.ts';

/** One row: on the draft edited with the schema's form or as JSON (validation details inline), read-only elsewhere. */
export function RowPage({ params }: ScreenProps) {
  const address = addressOf(params);
  const tableId = params.table as string;
  const rowId = params.row as string;
  const api = useApi();
  const loaded = useLoaded(revisionScreenKey(address, 'table', tableId, 'row', rowId), async () => {
    const context = await loadRevisionContext(api, address);
    const revisionId = context.revision.id;
    const { row, table } = await api.request(RowDocument, { data: { revisionId, tableId, rowId }, table: { revisionId, tableId } });
    return { context, row, schema: table.schema };
  });
  return (
    <>
      <PageTitle title={`Row ${rowId}`}>
        <Link to={revisionPath(address, 'table', tableId, 'row', rowId, 'history')} className="button-link">
          History
        </Link>
      </PageTitle>
      <Async value={loaded} what="the row">
        {({ context, row, schema }) => (
          <>
            <RevisionTabs address={address} context={context} />
            <p className="meta">
              Table {tableId} · created <Time value={row.createdAt} /> · updated <Time value={row.updatedAt} />
              {context.editable && (row.readonly ? ' · unchanged since HEAD' : ' · changed in the draft')}
            </p>
            <RowEditor address={address} revisionId={context.revision.id} tableId={tableId} row={row} schema={schema} editable={context.editable} />
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
};

function RowEditor({ address, revisionId, tableId, row, schema, editable }: RowEditorProps) {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const changed = (): Promise<void> => invalidate(...projectContentKeys(address.org, address.project));
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
    const done = await action.run(() => api.request(UpdateRowDocument, { data: { ...target, data: parsed.value } }));
    if (done) {
      await changed();
      setSaved(true);
    }
  };
  const rename = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const next = nextId.trim();
    const done = await action.run(() => api.request(RenameRowDocument, { data: { ...target, nextRowId: next } }));
    if (done) {
      navigation.navigate(revisionPath(address, 'table', tableId, 'row', next), { replace: true });
      await changed();
    }
  };
  const remove = async (): Promise<void> => {
    const done = await action.run(() => api.request(DeleteRowDocument, { data: target }));
    if (done) {
      navigation.navigate(revisionPath(address, 'table', tableId));
      await changed();
    }
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
