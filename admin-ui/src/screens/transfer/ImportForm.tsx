import { useId, useState, type ReactNode } from 'react';
import { isApiError } from '../../api/apiError.ts';
import type { ImportAnswer } from '../../api/transferTypes.ts';
import { useApi } from '../../app/session.tsx';
import { useAction } from '../../app/useAction.ts';
import { ErrorBox, Notice } from '../../components/Status.tsx';

/** What one import sends, besides the file: the route and its content type for these options. */
export type ImportRequest = { readonly url: (dryRun: boolean) => string; readonly contentType: string };

type ImportFormProps<A extends ImportAnswer> = {
  /** Heading of the section; also names its controls ("File for Import rows"). */
  readonly title: string;
  readonly accept: string;
  /** The option controls (format, mode, …); `key` changes whenever an option does, so a dry run must be redone. */
  readonly options: ReactNode;
  readonly optionsKey: string;
  readonly request: (file: File) => ImportRequest;
  /** A sentence after a dry run's counts (what the import will do with its invalid lines). */
  readonly dryRunNote?: (answer: A) => string | null;
  /** What the answer changed beyond the counts (a bundle's tables). */
  readonly details?: (answer: A) => ReactNode;
  readonly onImported: (answer: A) => Promise<void> | void;
};

const kb = (bytes: number): string => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`);

/**
 * The dry-run-first flow of portability.md §6: pick a file and options, *Dry run* answers the counts and the first
 * invalid lines at their line number, then *Import* writes (enabled once the same file and options passed a dry
 * run). A refused import (400 IMPORT_INVALID) lists its lines the same way; nothing was written then.
 */
export function ImportForm<A extends ImportAnswer>({
  title,
  accept,
  options,
  optionsKey,
  request,
  dryRunNote,
  details,
  onImported,
}: ImportFormProps<A>) {
  const api = useApi();
  const action = useAction();
  const fileId = useId();
  const titleId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<{ readonly answer: A; readonly key: string } | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const key = file ? `${file.name}|${file.size}|${file.lastModified}|${optionsKey}` : '';
  const dryRunPassed = result !== null && result.answer.dryRun && result.key === key;
  const send = async (dryRun: boolean): Promise<void> => {
    if (!file) return;
    const { url, contentType } = request(file);
    // fetch reports no upload progress: the status names what is on its way, then the answer replaces it.
    setProgress(`${dryRun ? 'Checking' : 'Uploading'} ${file.name} (${kb(file.size)})…`);
    const answer = await action.run(() => api.upload<A>(url(dryRun), file, contentType));
    setProgress(null);
    if (!answer) return;
    setResult({ answer, key });
    if (!answer.dryRun) await onImported(answer);
  };
  const lineErrors = isApiError(action.error, 'IMPORT_INVALID') ? action.error.details : [];
  return (
    <section className="card form" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <div className="form-row">
        <div className="field">
          <label htmlFor={fileId}>
            File<span className="visually-hidden"> for {title}</span>
          </label>
          <input
            id={fileId}
            type="file"
            accept={accept}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setResult(null);
              action.clear();
            }}
          />
        </div>
        {options}
      </div>
      <div className="actions">
        <button type="button" disabled={!file || action.busy} onClick={() => void send(true)}>
          Dry run<span className="visually-hidden"> of {title}</span>
        </button>
        <button type="button" className="primary" disabled={!dryRunPassed || action.busy} onClick={() => void send(false)}>
          Import<span className="visually-hidden"> after the dry run of {title}</span>
        </button>
        {file && !dryRunPassed && !action.busy && <span className="hint">Run a dry run of this file and these options first.</span>}
      </div>
      {progress && (
        <p className="status" role="status">
          {progress}
        </p>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {lineErrors.length > 0 && (
        <ul className="detail-list" aria-label={`Invalid lines of ${title}`}>
          {lineErrors.map((detail, index) => (
            <li key={index}>
              {lineOf(detail.path)}: {detail.message}
            </li>
          ))}
        </ul>
      )}
      {result && result.key === key && (
        <ImportResult
          answer={result.answer}
          title={title}
          note={result.answer.dryRun ? (dryRunNote?.(result.answer) ?? null) : null}
          details={details}
        />
      )}
    </section>
  );
}

function lineOf(pointer: string | undefined): string {
  const match = /^\/line\/(\d+)$/.exec(pointer ?? '');
  return match ? `Line ${match[1]}` : (pointer ?? 'The file');
}

type ImportResultProps<A> = {
  readonly answer: A;
  readonly title: string;
  readonly note: string | null;
  readonly details: ((answer: A) => ReactNode) | undefined;
};

function ImportResult<A extends ImportAnswer>({ answer, title, note, details }: ImportResultProps<A>) {
  const counts = `${answer.processed} lines read · ${answer.created} created · ${answer.updated} updated · ${answer.unchanged} unchanged · ${answer.removed} removed · ${answer.invalid} invalid`;
  return (
    <div className="import-result">
      <Notice kind={answer.invalid > 0 && answer.dryRun ? 'error' : 'success'}>
        {answer.dryRun ? `Dry run, nothing written: ${counts}.` : `Imported: ${counts}.`}
        {note && ` ${note}`}
      </Notice>
      {answer.errors.length > 0 && (
        <ul className="detail-list" aria-label={`Invalid lines in the answer of ${title}`}>
          {answer.errors.map((error) => (
            <li key={`${error.line}:${error.code}`}>
              Line {error.line}
              {error.rowId ? ` (row ${error.rowId})` : ''}: {error.message}
              {error.details?.map((detail, index) => (
                <span key={index} className="hint">
                  {' '}
                  <code>{detail.path || '/'}</code> {detail.message}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      {details?.(answer)}
    </div>
  );
}
