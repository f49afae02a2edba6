import { useId, type ReactNode } from 'react';
import type { JsonSchema } from '../../api/types.ts';
import { pointerOf } from '../../lib/jsonPointer.ts';
import { LabelText } from '../Fields.tsx';
import type { PathSegment } from '../../lib/formValue.ts';
import { useRowForm } from './rowFormContext.ts';

/** What a leaf control needs to be labelled and described: ids tied to its label, hint and errors. */
export type ControlProps = { readonly id: string; readonly describedBy: string | undefined; readonly invalid: boolean; readonly readOnly: boolean };

type FieldFrameProps = {
  readonly label: string;
  readonly trail: string;
  readonly node: JsonSchema;
  readonly path: readonly PathSegment[];
  /** Extra words after the description (e.g. "UTC"). */
  readonly hint?: string;
  readonly checkbox?: boolean;
  readonly children: (control: ControlProps) => ReactNode;
};

/** The server's messages for one place of the row, as the form shows them next to that place. */
export function FieldErrors({ id, messages }: { readonly id: string; readonly messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <span className="field-error" id={id}>
      {messages.join('; ')}
    </span>
  );
}

/** The words after a field's label that make its accessible name unique on the screen: "in meta › source". */
export function trailContext(trail: string): string | undefined {
  return trail === '' ? undefined : `in ${trail}`;
}

/** A field's label with its trail, as buttons that act on the field name it: "tags 1 in meta". */
export function fieldName(label: string, trail: string): string {
  return trail === '' ? label : `${label} in ${trail}`;
}

export function useFieldErrors(path: readonly PathSegment[]): readonly string[] {
  return useRowForm().errors.get(pointerOf(path)) ?? [];
}

/** A label, the field's description and `readOnly` note, the control, and the server's errors at this path. */
export function FieldFrame({ label, trail, node, path, hint, checkbox, children }: FieldFrameProps) {
  const id = useId();
  const messages = useFieldErrors(path);
  const readOnly = node.readOnly === true;
  const notes = [typeof node.description === 'string' ? node.description : '', hint ?? '', readOnly ? 'Read-only: computed, not edited here.' : '']
    .filter(Boolean)
    .join(' ');
  const describedBy = [notes ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const control = children({ id, describedBy, invalid: messages.length > 0, readOnly });
  return (
    <div className={checkbox ? 'field checkbox form-field' : 'field form-field'} data-path={pointerOf(path)}>
      {checkbox && control}
      <label htmlFor={id}>
        <LabelText label={label} labelContext={trailContext(trail)} />
      </label>
      {!checkbox && control}
      {notes && (
        <span className="hint" id={`${id}-hint`}>
          {notes}
        </span>
      )}
      <FieldErrors id={`${id}-error`} messages={messages} />
    </div>
  );
}
