import { useEffect, useState } from 'react';
import { RowOptionsDocument, TableSchemaDocument } from '../../api/generated/operations.ts';
import type { JsonSchema } from '../../api/types.ts';
import { useOperation } from '../../app/queries.ts';
import { queryKeys } from '../../app/queryKeys.ts';
import { labelField, type PathSegment } from '../../lib/formValue.ts';
import { cellText } from '../../lib/schemaModel.ts';
import { Combobox } from '../Combobox.tsx';
import { FieldFrame } from './FieldFrame.tsx';
import { useRowForm } from './rowFormContext.ts';

const LIMIT = 8;
/** Typing pauses this long before the search is sent. */
const DEBOUNCE_MS = 150;

type PickerProps = {
  readonly label: string;
  readonly trail: string;
  readonly node: JsonSchema;
  readonly value: string;
  readonly path: readonly PathSegment[];
  readonly onChange: (next: unknown) => void;
};

function useDebounced(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * A foreign key (domain.md §7) as a combobox: typing searches the referenced table's rows by id and by its first
 * text field (case-insensitive, at most LIMIT); a row can be picked, or an id typed in full (the server checks it).
 */
export function ForeignKeyPicker({ label, trail, node, value, path, onChange }: PickerProps) {
  const tableId = node.foreignKey as string;
  const { revisionId } = useRowForm();
  const [open, setOpen] = useState(false);
  const search = useDebounced(value.trim());
  const schema = useOperation(
    queryKeys.revision(revisionId),
    TableSchemaDocument,
    { data: { revisionId, tableId } },
    { select: (d) => labelField(d.table.schema) },
  );
  const field = schema.status === 'success' ? schema.data : schema.status === 'error' ? null : undefined;
  const byId = { id: { contains: search, mode: 'insensitive' as const } };
  const where =
    search === '' ? undefined : field ? { OR: [byId, { data: { path: [field], string_contains: search, mode: 'insensitive' as const } }] } : byId;
  const rows = useOperation(
    queryKeys.revision(revisionId),
    RowOptionsDocument,
    { data: { revisionId, tableId, first: LIMIT, ...(where ? { where } : {}) } },
    { enabled: open && field !== undefined, keepPrevious: true, select: (d) => d.rows.edges.map(({ node: row }) => row) },
  );
  const options = (rows.data ?? []).map((row) => ({
    value: row.id,
    label: row.id,
    hint: field ? cellText((row.data as Record<string, unknown>)[field], 60) : '',
  }));
  const note =
    rows.status === 'error'
      ? `The rows of ${tableId} could not be loaded.`
      : rows.status === 'success' && options.length === 0
        ? `No row of ${tableId} matches.`
        : null;
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path} hint={`A row id of table ${tableId}: type to search.`}>
      {(c) => (
        <Combobox
          id={c.id}
          text={value}
          onText={onChange}
          options={rows.status === 'success' ? options : []}
          onPick={(option) => onChange(option.value)}
          listLabel={`Rows of ${tableId}`}
          note={note}
          onOpenChange={setOpen}
          describedBy={c.describedBy}
          invalid={c.invalid}
          readOnly={c.readOnly}
        />
      )}
    </FieldFrame>
  );
}
