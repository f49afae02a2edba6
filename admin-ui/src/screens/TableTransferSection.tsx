import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/apiError.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Select } from '../components/Fields.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { ErrorBox, Notice } from '../components/Status.tsx';

/** The answer of a table import (portability.md §2). */
type ImportAnswer = {
  readonly processed: number;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly removed: number;
  readonly invalid: number;
  readonly errors: readonly { readonly line: number; readonly rowId: string | null; readonly code: string; readonly message: string }[];
  readonly dryRun: boolean;
};

type LineError = { readonly line: number; readonly rowId: string | null; readonly text: string };

const FORMATS = [
  { value: 'jsonl', label: 'JSON Lines' },
  { value: 'csv', label: 'CSV' },
];
const MODES = [
  { value: 'insert', label: 'Insert (new rows only)' },
  { value: 'upsert', label: 'Upsert (create or replace)' },
  { value: 'replace', label: 'Replace (rows not in the file are removed)' },
];

const tablePath = (revisionId: string, tableId: string): string => `/api/revision/${encodeURIComponent(revisionId)}/table/${encodeURIComponent(tableId)}`;

/** Line errors of an answer, or of a 400 IMPORT_INVALID (`details` at `/line/{n}`). */
function lineErrorsOf(answer: ImportAnswer | null, error: unknown): LineError[] {
  if (answer !== null) return answer.errors.map((e) => ({ line: e.line, rowId: e.rowId, text: `${e.code}: ${e.message}` }));
  if (!isApiError(error, 'IMPORT_INVALID')) return [];
  return error.details.map((detail) => ({ line: Number(/^\/line\/(\d+)$/.exec(detail.path ?? '')?.[1] ?? 0), rowId: null, text: detail.message ?? '' }));
}

/** Export (any revision) and, on a draft, Import with a dry run first (portability.md §6). */
export function TableTransferSection({ revisionId, tableId, editable, onImported }: { readonly revisionId: string; readonly tableId: string; readonly editable: boolean; readonly onImported: () => Promise<void> }) {
  const [exportFormat, setExportFormat] = useState('jsonl');
  return (
    <section aria-labelledby="transfer-title" className="card">
      <h2 id="transfer-title">Export and import</h2>
      <div className="form-row">
        <Select label="Export format" value={exportFormat} onChange={setExportFormat} options={FORMATS} />
        <a className="button-link" href={`${tablePath(revisionId, tableId)}/export?format=${exportFormat}`} download={`${tableId}.${exportFormat}`}>
          Export
        </a>
      </div>
      {editable && <ImportForm revisionId={revisionId} tableId={tableId} onImported={onImported} />}
    </section>
  );
}

function ImportForm({ revisionId, tableId, onImported }: { readonly revisionId: string; readonly tableId: string; readonly onImported: () => Promise<void> }) {
  const api = useApi();
  const action = useAction();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState('jsonl');
  const [mode, setMode] = useState('insert');
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  // Import is offered once a dry run of this file and mode has been shown.
  const [checked, setChecked] = useState<string | null>(null);
  const key = file === null ? null : `${file.name}:${file.size}:${file.lastModified}:${format}:${mode}`;

  const chooseFile = (chosen: File | null): void => {
    setFile(chosen);
    setAnswer(null);
    setChecked(null);
    if (chosen !== null) setFormat(chosen.name.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
  };
  const send = async (dryRun: boolean): Promise<void> => {
    if (file === null) return;
    const query = `format=${format}&mode=${mode}&onError=${dryRun ? 'skip' : 'fail'}${dryRun ? '&dryRun=true' : ''}`;
    const contentType = format === 'csv' ? 'text/csv' : 'application/x-ndjson';
    setAnswer(null);
    const result = await action.run(() => api.upload(`${tablePath(revisionId, tableId)}/import?${query}`, file, contentType));
    if (result === undefined) return;
    setAnswer(result as ImportAnswer);
    if (dryRun) setChecked(key);
    else {
      setChecked(null);
      await onImported();
    }
  };
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void send(true);
  };
  const lines = lineErrorsOf(answer, action.error);
  return (
    <form onSubmit={submit} aria-label="Import rows">
      <h3>Import into the draft</h3>
      <div className="field">
        <label htmlFor="import-file">File (JSON Lines or CSV)</label>
        <input id="import-file" type="file" accept=".jsonl,.ndjson,.csv,text/csv,application/x-ndjson" onChange={(event) => chooseFile(event.target.files?.[0] ?? null)} />
      </div>
      <div className="form-row">
        <Select label="Import format" value={format} onChange={setFormat} options={FORMATS} />
        <Select label="Mode" value={mode} onChange={setMode} options={MODES} />
      </div>
      <div className="form-row">
        <button type="submit" disabled={action.busy || file === null}>
          Dry run
        </button>
        <button type="button" disabled={action.busy || key === null || checked !== key} onClick={() => void send(false)}>
          Import
        </button>
      </div>
      {action.busy && <p role="status">Uploading…</p>}
      {answer !== null && (
        <Notice kind={answer.invalid > 0 ? 'error' : 'success'}>
          {answer.dryRun ? 'Dry run: ' : 'Imported: '}
          {answer.processed} lines, {answer.created} created, {answer.updated} updated, {answer.unchanged} unchanged, {answer.removed} removed, {answer.invalid} invalid
          {answer.dryRun ? ' (nothing was written)' : ''}
        </Notice>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {lines.length > 0 && (
        <GridTable
          items={lines}
          rowKey={(line) => `${line.line}:${line.text}`}
          caption="Invalid lines"
          scrollLabel="Invalid lines"
          head={
            <>
              <th scope="col">Line</th>
              <th scope="col">Row</th>
              <th scope="col">Error</th>
            </>
          }
          row={(line) => (
            <>
              <td>{line.line}</td>
              <td>{line.rowId ?? '—'}</td>
              <td>{line.text}</td>
            </>
          )}
        />
      )}
    </form>
  );
}
