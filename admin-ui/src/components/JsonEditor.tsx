import { useId, useMemo, useRef } from 'react';
import type { ErrorDetail } from '../api/apiError.ts';
import { jsonValueOffsets, locatePointer } from '../lib/jsonPositions.ts';

type JsonEditorProps = {
  readonly label: string;
  readonly value: string;
  readonly onChange?: (text: string) => void;
  readonly readOnly?: boolean;
  /** Server validation details; each `path` is a JSON Pointer into the edited value. */
  readonly details?: readonly ErrorDetail[];
  readonly rows?: number;
  readonly hint?: string;
};

/** Whether `text` is JSON, and where it breaks when it is not. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : 'Not valid JSON' };
  }
}

function describe(detail: ErrorDetail): string {
  const parts = [detail.message ?? 'invalid'];
  if (detail.missingRowIds?.length) parts.push(`missing rows in "${detail.tableId ?? '?'}": ${detail.missingRowIds.join(', ')}`);
  return parts.join('; ');
}

/**
 * A JSON text area. Syntax errors are shown while typing; the server's validation details are listed with their
 * JSON Pointer and line, and choosing one moves the cursor to that place in the text.
 */
export function JsonEditor(props: JsonEditorProps) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const syntax = useMemo(() => (props.readOnly ? null : parseJson(props.value)), [props.value, props.readOnly]);
  const located = useMemo(() => {
    const details = props.details ?? [];
    if (details.length === 0) return [];
    const offsets = jsonValueOffsets(props.value);
    return details.map((detail) => ({ detail, at: locatePointer(props.value, detail.path ?? '', offsets) }));
  }, [props.details, props.value]);

  const jumpTo = (offset: number): void => {
    const element = area.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(offset, offset);
    const line = props.value.slice(0, offset).split('\n').length;
    const lineHeight = element.scrollHeight / Math.max(1, props.value.split('\n').length);
    element.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };

  const describedBy = [props.hint ? `${id}-hint` : '', located.length ? `${id}-errors` : '', syntax && !syntax.ok ? `${id}-syntax` : '']
    .filter(Boolean)
    .join(' ');

  return (
    <div className="json-editor">
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <textarea
        id={id}
        ref={area}
        className="code"
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        rows={props.rows ?? 14}
        value={props.value}
        readOnly={props.readOnly}
        aria-invalid={located.length > 0 || (syntax !== null && !syntax.ok)}
        aria-describedby={describedBy || undefined}
        onChange={(event) => props.onChange?.(event.target.value)}
      />
      {syntax && !syntax.ok && (
        <p className="field-error" id={`${id}-syntax`}>
          Not valid JSON: {syntax.message}
        </p>
      )}
      {located.length > 0 && (
        <ul className="detail-list" id={`${id}-errors`} aria-label="Validation errors">
          {located.map(({ detail, at }, index) => (
            <li key={index}>
              <code>{detail.path || '/'}</code>
              {detail.rowId !== undefined && <span> (row {detail.rowId})</span>}
              {detail.index !== undefined && detail.rowId === undefined && <span> (operation {detail.index + 1})</span>}: {describe(detail)}{' '}
              {at && (
                <button type="button" className="link-button" onClick={() => jumpTo(at.offset)}>
                  line {at.line}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
