import { useMemo, useState } from 'react';
import type { ErrorDetail } from '../../api/apiError.ts';
import type { JsonSchema } from '../../api/types.ts';
import { isFormPointer } from '../../lib/formValue.ts';
import { JsonEditor, parseJson } from '../JsonEditor.tsx';
import { PropertyControls } from './FieldControl.tsx';
import { RowFormContext } from './rowFormContext.ts';

type RowDataEditorProps = {
  readonly schema: JsonSchema;
  readonly revisionId: string;
  /** The row document as JSON text: the one state both modes edit. */
  readonly text: string;
  readonly onText: (text: string) => void;
  /** Details of the last failed save (errors.md §4); each `path` points into the row. */
  readonly details: readonly ErrorDetail[];
  readonly jsonLabel: string;
};

function describe(detail: ErrorDetail): string {
  const missing = detail.missingRowIds?.length ? `: no row ${detail.missingRowIds.join(', ')} in table ${detail.tableId ?? '?'}` : '';
  return `${detail.message ?? 'invalid'}${missing}`;
}

/**
 * A row's data edited with a form generated from the table schema (admin-ui.md §3.1 Row form) or as raw JSON; the
 * toggle keeps one document, so switching never loses an edit. The server's details appear next to their field;
 * those the form has no place for are listed above it.
 */
export function RowDataEditor({ schema, revisionId, text, onText, details, jsonLabel }: RowDataEditorProps) {
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const parsed = parseJson(text);
  const errors = useMemo(() => {
    const map = new Map<string, string[]>();
    for (const detail of details) {
      const pointer = detail.path ?? '';
      map.set(pointer, [...(map.get(pointer) ?? []), describe(detail)]);
    }
    return map;
  }, [details]);
  const context = useMemo(() => ({ revisionId, errors }), [revisionId, errors]);
  const value = parsed.ok ? parsed.value : null;
  // The form shows a row as it is; a document that is not a JSON object has no fields to show.
  const formable = parsed.ok && typeof value === 'object' && value !== null && !Array.isArray(value);
  const unplaced = details.filter((detail) => !formable || !isFormPointer(schema, value, detail.path ?? ''));
  const showForm = mode === 'form' && formable;
  return (
    <div className="row-editor">
      <div className="mode-toggle" role="group" aria-label="Row editing mode">
        <button type="button" aria-pressed={showForm} disabled={!formable} onClick={() => setMode('form')}>
          <span className="visually-hidden">Row as </span>Form
        </button>
        <button type="button" aria-pressed={!showForm} onClick={() => setMode('json')}>
          <span className="visually-hidden">Row as </span>JSON
        </button>
        {!parsed.ok && <span className="hint">Fix the JSON to use the form.</span>}
        {parsed.ok && !formable && <span className="hint">The row must be a JSON object to use the form.</span>}
      </div>
      {showForm ? (
        <RowFormContext.Provider value={context}>
          {unplaced.length > 0 && (
            <ul className="detail-list" aria-label="Validation errors">
              {unplaced.map((detail, index) => (
                <li key={index}>
                  <code>{detail.path || '/'}</code>: {describe(detail)}
                </li>
              ))}
            </ul>
          )}
          <div className="row-form">
            <PropertyControls node={schema} value={value} path={[]} trail="" owner="" onChange={(next) => onText(JSON.stringify(next, null, 2))} />
          </div>
        </RowFormContext.Provider>
      ) : (
        <JsonEditor label={jsonLabel} value={text} onChange={onText} details={details} rows={Math.min(24, text.split('\n').length + 3)} />
      )}
    </div>
  );
}
