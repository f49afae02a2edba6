import { useState, type FormEvent } from 'react';
import { DeleteTableDocument, RenameTableDocument, TableDocument } from '../api/generated/operations.ts';
import type { Table } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useLoaded } from '../app/queries.ts';
import { useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { RevisionTabs } from './RevisionTabs.tsx';
import { RowsSection } from './RowsSection.tsx';
import { SchemaSection } from './SchemaSection.tsx';
import { TableTransfer } from './transfer/TableTransfer.tsx';
import { addressOf, loadRevisionContext, revisionPath, revisionScreenKey, type RevisionAddress, type RevisionContext } from './revisionContext.ts';

type Loaded = { readonly context: RevisionContext; readonly table: Table };

/** A table of a revision: schema view/editor, rows grid; rename and delete on the draft. */
export function TablePage({ params }: ScreenProps) {
  const address = addressOf(params);
  const tableId = params.table as string;
  const api = useApi();
  const invalidate = useInvalidate();
  const loaded = useLoaded(revisionScreenKey(address, 'table', tableId), async (): Promise<Loaded> => {
    const context = await loadRevisionContext(api, address);
    const { table } = await api.request(TableDocument, { data: { revisionId: context.revision.id, tableId } });
    return { context, table };
  });
  const changed = (): Promise<void> => invalidate(...projectContentKeys(address.org, address.project));
  return (
    <>
      <PageTitle title={`Table ${tableId}`} />
      <Async value={loaded} what="the table">
        {({ context, table }) => (
          <>
            <RevisionTabs address={address} context={context} />
            <p className="meta">
              {table.count} {table.count === 1 ? 'row' : 'rows'} · updated <Time value={table.updatedAt} />
              {table.foreignKeysTo.length > 0 && <> · references {table.foreignKeysTo.join(', ')}</>}
              {table.foreignKeysBy.length > 0 && <> · referenced by {table.foreignKeysBy.join(', ')}</>}
            </p>
            <RowsSection address={address} revisionId={context.revision.id} table={table} editable={context.editable} />
            <SchemaSection revisionId={context.revision.id} table={table} editable={context.editable} onSaved={changed} />
            <TableTransfer revisionId={context.revision.id} tableId={tableId} editable={context.editable} onImported={changed} />
            {context.editable && <TableActions address={address} revisionId={context.revision.id} tableId={tableId} />}
          </>
        )}
      </Async>
    </>
  );
}

function TableActions({
  address,
  revisionId,
  tableId,
}: {
  readonly address: RevisionAddress;
  readonly revisionId: string;
  readonly tableId: string;
}) {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const [nextId, setNextId] = useState(tableId);
  const rename = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const next = nextId.trim();
    const done = await action.run(() => api.request(RenameTableDocument, { data: { revisionId, tableId, nextTableId: next } }));
    if (done) {
      // Away from the old id first: reading it again would only find it gone.
      navigation.navigate(revisionPath(address, 'table', next), { replace: true });
      await invalidate(...projectContentKeys(address.org, address.project));
    }
  };
  const remove = async (): Promise<void> => {
    const done = await action.run(() => api.request(DeleteTableDocument, { data: { revisionId, tableId } }));
    if (done) {
      navigation.navigate(revisionPath(address));
      await invalidate(...projectContentKeys(address.org, address.project));
    }
  };
  return (
    <section aria-labelledby="table-actions-title" className="card">
      <h2 id="table-actions-title">Table settings</h2>
      <form className="form-row" onSubmit={(event) => void rename(event)}>
        <TextField label="Table id" value={nextId} onChange={setNextId} required maxLength={64} />
        <button type="submit" disabled={action.busy || nextId.trim() === '' || nextId.trim() === tableId}>
          Rename table
        </button>
      </form>
      {action.error !== null && <ErrorBox error={action.error} />}
      <ConfirmButton
        label="Delete table"
        title={`Delete table ${tableId}?`}
        confirmLabel="Delete table"
        danger
        disabled={action.busy}
        onConfirm={remove}
      >
        <p>The table and all its rows are removed from the draft (HEAD keeps them until the next commit).</p>
      </ConfirmButton>
    </section>
  );
}
