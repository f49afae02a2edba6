import { useId } from 'react';
import type { RowChange } from '../api/changeTypes.ts';
import { Link } from '../app/router.tsx';
import { FieldChangesTable } from '../components/FieldChangesTable.tsx';
import { JsonValue } from '../components/JsonValue.tsx';

const KIND_LABELS: Readonly<Record<RowChange['change'], string>> = { ADDED: 'added', UPDATED: 'updated', REMOVED: 'removed', RENAMED: 'renamed' };

/** The server lists at most this many field changes of one row (changes.md §1.2). */
const FIELD_CHANGE_CAP = 100;

/** One changed row: what happened, the field-level before/after, and the whole documents on demand. */
type RowChangeCardProps = { readonly change: RowChange; readonly links: { readonly row: string | null; readonly history: string | null } };

export function RowChangeCard({ change, links }: RowChangeCardProps) {
  const titleId = useId();
  return (
    <article className="card row-change" aria-labelledby={titleId}>
      <h3 id={titleId}>
        <span className="row-change-id">{change.rowId}</span>
        <span className={`badge change-${change.change.toLowerCase()}`}>{KIND_LABELS[change.change]}</span>
        {change.previousRowId && <span className="hint"> from {change.previousRowId}</span>}
      </h3>
      <RowChangeBody change={change} />
      {(links.row ?? links.history) && (
        <p className="row-change-link">
          {links.row && <Link to={links.row}>Open row {change.rowId}</Link>}
          {links.history && <Link to={links.history}>History of {change.rowId}</Link>}
        </p>
      )}
    </article>
  );
}

function RowChangeBody({ change }: { readonly change: RowChange }) {
  if (change.change === 'ADDED') return <Document label="New data" value={change.after} />;
  if (change.change === 'REMOVED') return <Document label="Removed data" value={change.before} />;
  if (change.fieldChanges.length === 0) {
    return <p className="meta">Only the id changed: the data is the same.</p>;
  }
  return (
    <>
      <FieldChangesTable changes={change.fieldChanges} caption={`Changed fields of ${change.rowId}`} />
      {change.fieldChanges.length >= FIELD_CHANGE_CAP && <p className="hint">The first {FIELD_CHANGE_CAP} changed fields are shown.</p>}
      <details className="documents">
        <summary>Whole row before and after</summary>
        <div className="before-after">
          <Document label="Before" value={change.before} />
          <Document label="After" value={change.after} />
        </div>
      </details>
    </>
  );
}

function Document({ label, value }: { readonly label: string; readonly value: unknown }) {
  return (
    <div className="document">
      <p className="document-label">{label}</p>
      <JsonValue value={value} />
    </div>
  );
}
