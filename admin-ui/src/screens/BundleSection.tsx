import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/apiError.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Select } from '../components/Fields.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { ErrorBox, Notice } from '../components/Status.tsx';
import type { RevisionAddress } from './revisionContext.ts';

/** The answer of a bundle import (portability.md §3): the draft's table changes and the row counts. */
type BundleAnswer = {
  readonly tables: readonly { readonly tableId: string; readonly change: string; readonly schemaChanged: boolean; readonly rowChanges: { readonly added: number; readonly updated: number; readonly removed: number } }[];
  readonly totalRowChanges: number;
  readonly processed: number;
  readonly dryRun: boolean;
};

const MODES = [
  { value: 'replace', label: 'Replace (the draft becomes the bundle)' },
  { value: 'merge', label: 'Merge (create and update, remove nothing)' },
];

/** Download bundle (any revision) and, on a branch draft, Import bundle with a dry run first (portability.md §6). */
export function BundleSection({ address, revisionId, editable, onImported }: { readonly address: RevisionAddress; readonly revisionId: string; readonly editable: boolean; readonly onImported: () => Promise<void> }) {
  return (
    <section aria-labelledby="bundle-title" className="card">
      <h2 id="bundle-title">Bundle</h2>
      <p className="meta">Every table of this revision and its rows in one file, to import into a branch draft of another instance.</p>
      <a className="button-link" href={`/api/revision/${encodeURIComponent(revisionId)}/bundle`} download={`${revisionId}.bundle.jsonl`}>
        Download bundle
      </a>
      {editable && <BundleImportForm address={address} onImported={onImported} />}
    </section>
  );
}

function BundleImportForm({ address, onImported }: { readonly address: RevisionAddress; readonly onImported: () => Promise<void> }) {
  const api = useApi();
  const action = useAction();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState('replace');
  const [answer, setAnswer] = useState<BundleAnswer | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const key = file === null ? null : `${file.name}:${file.size}:${file.lastModified}:${mode}`;
  const url = `/api/organization/${encodeURIComponent(address.org)}/project/${encodeURIComponent(address.project)}/branch/${encodeURIComponent(address.branch)}/bundle`;

  const send = async (dryRun: boolean): Promise<void> => {
    if (file === null) return;
    setAnswer(null);
    const result = await action.run(() => api.upload(`${url}?mode=${mode}${dryRun ? '&dryRun=true' : ''}`, file, 'application/x-ndjson'));
    if (result === undefined) return;
    setAnswer(result as BundleAnswer);
    setChecked(dryRun ? key : null);
    if (!dryRun) await onImported();
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void send(true);
  };
  const invalidLines = isApiError(action.error, 'IMPORT_INVALID') ? action.error.details : [];
  return (
    <form onSubmit={submit} aria-label="Import bundle">
      <h3>Import bundle into the draft</h3>
      <div className="field">
        <label htmlFor="bundle-file">Bundle file</label>
        <input id="bundle-file" type="file" accept=".jsonl,application/x-ndjson" onChange={(event) => { setFile(event.target.files?.[0] ?? null); setAnswer(null); setChecked(null); }} />
      </div>
      <Select label="Bundle mode" value={mode} onChange={setMode} options={MODES} />
      <div className="form-row">
        <button type="submit" disabled={action.busy || file === null}>
          Dry run
        </button>
        <button type="button" disabled={action.busy || key === null || checked !== key} onClick={() => void send(false)}>
          Import bundle
        </button>
      </div>
      {answer !== null && (
        <Notice kind="success">
          {answer.dryRun ? 'Dry run: ' : 'Imported: '}
          {answer.processed} rows read; {answer.tables.length} tables and {answer.totalRowChanges} rows {answer.dryRun ? "would change" : "changed"}
          {answer.dryRun ? ' (nothing was written)' : ''}
        </Notice>
      )}
      {answer !== null && answer.tables.length > 0 && (
        <GridTable
          items={answer.tables}
          rowKey={(table) => table.tableId}
          caption="Table changes"
          scrollLabel="Table changes"
          head={
            <>
              <th scope="col">Table</th>
              <th scope="col">Change</th>
              <th scope="col">Schema</th>
              <th scope="col">Rows added</th>
              <th scope="col">updated</th>
              <th scope="col">removed</th>
            </>
          }
          row={(table) => (
            <>
              <td>{table.tableId}</td>
              <td>{table.change}</td>
              <td>{table.schemaChanged ? 'changed' : '—'}</td>
              <td>{table.rowChanges.added}</td>
              <td>{table.rowChanges.updated}</td>
              <td>{table.rowChanges.removed}</td>
            </>
          )}
        />
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {invalidLines.length > 0 && (
        <ul aria-label="Invalid lines">
          {invalidLines.map((detail) => (
            <li key={`${detail.path}:${detail.message}`}>
              Line {detail.path?.replace('/line/', '')}: {detail.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
