import { useId, useState } from 'react';
import type { ErrorDetail } from '../../api/apiError.ts';
import { TableDocument, type PreviewMergeResult } from '../../api/generated/operations.ts';
import { useOperation } from '../../app/queries.ts';
import { queryKeys } from '../../app/queryKeys.ts';
import { fieldLabel } from '../../components/FieldChangesTable.tsx';
import { JsonEditor, parseJson } from '../../components/JsonEditor.tsx';
import { JsonValue } from '../../components/JsonValue.tsx';
import { RowDataEditor } from '../../components/rowForm/RowDataEditor.tsx';
import { allowedTakes, effectiveTake, type MergeChoice, type MergeStrategy, type MergeTake } from '../../lib/mergeChoices.ts';

export type MergeConflict = PreviewMergeResult['previewMerge']['conflicts'][number];

const KIND_LABELS: Readonly<Record<MergeConflict['kind'], string>> = {
  TABLE_REMOVED_CHANGED: 'Table removed on one side, changed on the other',
  TABLE_RENAME: 'Table renamed differently',
  TABLE_ID_TAKEN: 'Table id already taken',
  TABLE_SCHEMA: 'Schema changed on both sides',
  ROW_REMOVED_CHANGED: 'Row removed on one side, changed on the other',
  ROW_RENAME: 'Row renamed differently',
  ROW_ID_TAKEN: 'Row id already taken',
  ROW_UPDATE: 'Field changed on both sides',
  INVALID_DATA: 'Row invalid after the merge',
  FOREIGN_KEY: 'Missing referenced row after the merge',
};

const TAKE_LABELS: Readonly<Record<MergeTake, string>> = { OURS: 'Keep ours', THEIRS: 'Take theirs', VALUE: 'Edit value', REMOVE: 'Remove row' };

/** Where a conflict is, in words: `authors / alice › address › city`. */
export function conflictLocation(conflict: MergeConflict): string {
  const row = conflict.rowId === null ? '' : ` / ${conflict.rowId}`;
  const path = conflict.path ? ` › ${fieldLabel(conflict.path)}` : '';
  return `${conflict.tableId}${row}${path}`;
}

type ConflictCardProps = {
  readonly conflict: MergeConflict;
  readonly choice: MergeChoice | undefined;
  readonly strategy: MergeStrategy;
  /** Still unresolved in the latest preview (with the current choices and strategy). */
  readonly open: boolean;
  readonly draftRevisionId: string;
  readonly onChoose: (choice: MergeChoice | undefined) => void;
};

/**
 * One conflict side by side (base, ours, theirs; merge.md §7) with the choices its kind allows. *Edit value* opens
 * the row form for a whole row (a JSON editor for a field's value) and counts once *Use this value* is pressed.
 */
export function ConflictCard({ conflict, choice, strategy, open, draftRevisionId, onChoose }: ConflictCardProps) {
  const titleId = useId();
  const location = conflictLocation(conflict);
  const takes = allowedTakes(conflict.kind);
  const effective = effectiveTake(conflict.kind, choice, strategy);
  const [editing, setEditing] = useState(choice?.take === 'VALUE');
  const selected = editing ? 'VALUE' : effective;
  const pick = (take: MergeTake): void => {
    if (take === 'VALUE') {
      setEditing(true);
      return;
    }
    setEditing(false);
    onChoose({ take });
  };
  return (
    <article className={`card conflict${open ? ' conflict-open' : ''}`} aria-labelledby={titleId}>
      <h3 id={titleId}>
        {location}
        <span className={`badge${open ? ' badge-warn' : ' change-added'}`}>{open ? 'open' : 'resolved'}</span>
      </h3>
      <p className="meta">{KIND_LABELS[conflict.kind]}</p>
      <div className="conflict-sides">
        <Side label="Base" value={conflict.base} />
        <Side label="Ours (this draft)" value={conflict.ours} />
        <Side label="Theirs (source)" value={conflict.theirs} />
      </div>
      {conflict.details && conflict.details.length > 0 && (
        <ul className="detail-list" aria-label={`Problems of ${location}`}>
          {(conflict.details as ErrorDetail[]).map((detail, index) => (
            <li key={index}>
              <code>{detail.path || '/'}</code>: {detail.message ?? 'invalid'}
              {detail.missingRowIds?.length ? ` (no row ${detail.missingRowIds.join(', ')} in ${detail.tableId ?? '?'})` : ''}
            </li>
          ))}
        </ul>
      )}
      <fieldset className="choices conflict-choice">
        <legend>
          Resolution<span className="visually-hidden"> of {location}</span>
        </legend>
        {takes.map((take) => (
          <label key={take} className="choice">
            <input type="radio" name={`choice-${conflict.id}`} value={take} checked={selected === take} onChange={() => pick(take)} />
            {TAKE_LABELS[take]}
            <span className="visually-hidden"> for {location}</span>
          </label>
        ))}
        {!choice && effective !== null && <span className="hint">by {strategy === 'THEIRS' ? 'Take all theirs' : 'Keep all ours'}</span>}
      </fieldset>
      {editing && (
        <ValueEditor
          conflict={conflict}
          choice={choice}
          location={location}
          draftRevisionId={draftRevisionId}
          onUse={(value) => onChoose({ take: 'VALUE', value })}
        />
      )}
    </article>
  );
}

function Side({ label, value }: { readonly label: string; readonly value: unknown }) {
  return (
    <div className="document">
      <p className="document-label">{label}</p>
      <JsonValue value={value} missing="nothing" />
    </div>
  );
}

type ValueEditorProps = {
  readonly conflict: MergeConflict;
  readonly choice: MergeChoice | undefined;
  readonly location: string;
  readonly draftRevisionId: string;
  readonly onUse: (value: unknown) => void;
};

/** The value a VALUE resolution sends: a field's value as JSON, or a whole row with the table's row form. */
function ValueEditor({ conflict, choice, location, draftRevisionId, onUse }: ValueEditorProps) {
  const start = choice?.take === 'VALUE' ? choice.value : (conflict.theirs ?? conflict.ours ?? (conflict.kind === 'ROW_UPDATE' ? null : {}));
  const [text, setText] = useState(JSON.stringify(start, null, 2));
  const wholeRow = conflict.kind !== 'ROW_UPDATE';
  const table = useOperation(
    queryKeys.revision(draftRevisionId),
    TableDocument,
    { data: { revisionId: draftRevisionId, tableId: conflict.tableId } },
    {
      enabled: wholeRow,
      select: (d) => d.table,
    },
  );
  const parsed = parseJson(text);
  const used = choice?.take === 'VALUE' && parsed.ok && JSON.stringify(parsed.value) === JSON.stringify(choice.value);
  return (
    <div className="conflict-value">
      {wholeRow && table.status === 'success' ? (
        <RowDataEditor
          schema={table.data.schema}
          revisionId={draftRevisionId}
          text={text}
          onText={setText}
          details={[]}
          jsonLabel={`Row data for ${location}`}
        />
      ) : (
        <JsonEditor label={`Value for ${location}`} value={text} onChange={setText} rows={Math.min(12, text.split('\n').length + 2)} />
      )}
      <div className="actions">
        <button type="button" disabled={!parsed.ok} onClick={() => parsed.ok && onUse(parsed.value)}>
          Use this value<span className="visually-hidden"> for {location}</span>
        </button>
        {used && <span className="hint">This value is used.</span>}
      </div>
    </div>
  );
}
