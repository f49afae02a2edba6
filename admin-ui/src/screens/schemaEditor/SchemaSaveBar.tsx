import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/apiError.ts';
import { PreviewUpdateTableDocument, UpdateTableDocument } from '../../api/generated/operations.ts';
import { useApi } from '../../app/session.tsx';
import type { Action } from '../../app/useAction.ts';
import { Checkbox } from '../../components/Fields.tsx';
import { ErrorBox, Notice } from '../../components/Status.tsx';
import { lossConfirmation, maySave } from '../../lib/migrationLoss.ts';
import type { JsonPatchOperation } from '../../lib/schemaPatch.ts';
import { MigrationPreview, type TableMigration } from './MigrationPreview.tsx';

type SchemaSaveBarProps = {
  readonly revisionId: string;
  readonly tableId: string;
  /** The patch of the current edit; null when the edit cannot be sent (invalid JSON, a name problem). */
  readonly patch: readonly JsonPatchOperation[] | null;
  readonly action: Action;
  readonly onDiscard: () => void;
  /** Called after a save (the screen refreshes what the migration changed). */
  readonly onSaved: () => Promise<void>;
};

/**
 * The JSON Patch an edit sends, its migration preview from a dry run (`previewUpdateTable`), then the save. Any
 * further edit drops the preview, so what is saved is always what was previewed. When the migration loses data
 * (`rowsLossy`), Save stays disabled until the user ticks a confirmation naming the row count.
 */
export function SchemaSaveBar({ revisionId, tableId, patch, action, onDiscard, onSaved }: SchemaSaveBarProps) {
  const api = useApi();
  const [preview, setPreview] = useState<TableMigration | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const confirmation = useRef<HTMLDivElement>(null);
  const key = JSON.stringify(patch);
  useEffect(() => setPreview(null), [key]);
  useEffect(() => setConfirmed(false), [preview]);
  const loss = preview ? lossConfirmation(preview) : null;
  // The preview button turns into a Save that is disabled until confirmed: the focus goes to the confirmation.
  useEffect(() => {
    if (loss !== null) confirmation.current?.querySelector('input')?.focus();
  }, [loss, preview]);
  const data = { revisionId, tableId, patches: patch };
  // The one primary button turns from "Preview migration" into "Save schema" and keeps the keyboard focus, so it is
  // never disabled while a call runs (a disabled button would drop the focus); a second press is ignored instead.
  const runPreview = async (): Promise<void> => {
    if (action.busy) return;
    setSaved(null);
    const result = await action.run(() => api.request(PreviewUpdateTableDocument, { data }));
    if (result) setPreview(result.previewUpdateTable.migration);
  };
  const save = async (): Promise<void> => {
    if (action.busy || (preview && !maySave(preview, confirmed))) return;
    const done = await action.run(() => api.request(UpdateTableDocument, { data }));
    if (done && patch) {
      await onSaved();
      setSaved(patch.length);
      setPreview(null);
    }
  };
  // Rows the migration would leave invalid, or repeating a value of a field made unique (domain.md §5.5).
  const rowProblem =
    action.error instanceof ApiError && (action.error.code === 'INVALID_DATA' || action.error.code === 'UNIQUE_VIOLATION') ? action.error : null;
  const rowDetails = rowProblem?.details ?? [];
  const count = patch?.length ?? 0;
  return (
    <div className="schema-save">
      {count > 0 && (
        <details className="patch-preview">
          <summary>
            {count} change{count === 1 ? '' : 's'} to send as JSON Patch
          </summary>
          <pre className="code" aria-label="JSON Patch">
            {JSON.stringify(patch, null, 2)}
          </pre>
        </details>
      )}
      {rowDetails.length > 0 && (
        <ul
          className="detail-list"
          aria-label={rowProblem?.code === 'UNIQUE_VIOLATION' ? 'Rows that would repeat a unique value' : 'Rows that would not be valid'}
        >
          {rowDetails.map((detail, index) => (
            <li key={index}>
              {detail.rowId !== undefined && <>row {detail.rowId} </>}
              <code>{detail.path || '/'}</code>: {detail.message ?? 'invalid'}
            </li>
          ))}
        </ul>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {preview && <MigrationPreview migration={preview} />}
      {loss !== null && (
        <div className="loss-confirmation" ref={confirmation}>
          <Checkbox label={loss} checked={confirmed} onChange={setConfirmed} />
        </div>
      )}
      {saved !== null && (
        <Notice kind="success">
          Schema saved ({saved} operation{saved === 1 ? '' : 's'}).
        </Notice>
      )}
      <div className="actions">
        {preview ? (
          <button
            type="button"
            className={loss === null ? 'primary' : 'danger'}
            aria-busy={action.busy}
            disabled={!maySave(preview, confirmed)}
            onClick={() => void save()}
          >
            Save schema
          </button>
        ) : (
          <button type="button" className="primary" aria-busy={action.busy} disabled={count === 0} onClick={() => void runPreview()}>
            Preview migration
          </button>
        )}
        <button type="button" disabled={action.busy || count === 0} onClick={onDiscard}>
          Discard edits
        </button>
      </div>
    </div>
  );
}
