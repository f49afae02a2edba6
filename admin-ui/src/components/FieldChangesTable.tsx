import type { FieldChange } from '../api/changeTypes.ts';
import { pointerSegments } from '../lib/fieldDiff.ts';
import { JsonValue } from './JsonValue.tsx';

/** A field path for reading: `address › city`, `tags › 1`; the whole document when the pointer is empty. */
export function fieldLabel(pointer: string): string {
  const segments = pointerSegments(pointer);
  return segments.length === 0 ? '(whole document)' : segments.join(' › ');
}

/** Field-level before/after of one row: one line per changed leaf (changes.md §1.2 `fieldChanges`). */
export function FieldChangesTable({ changes, caption }: { readonly changes: readonly FieldChange[]; readonly caption: string }) {
  return (
    <div className="grid-scroll">
      <table className="grid field-changes">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.path}>
              <th scope="row" title={change.path}>
                <code>{fieldLabel(change.path)}</code>
              </th>
              <td className="before">
                <JsonValue value={change.before} missing="not set" />
              </td>
              <td className="after">
                <JsonValue value={change.after} missing="not set" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
