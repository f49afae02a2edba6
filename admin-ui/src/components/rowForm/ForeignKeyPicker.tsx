import { useEffect, useState } from 'react';
import type { Connection, JsonSchema, Row } from '../../api/types.ts';
import { useApi } from '../../app/session.tsx';
import { labelField, type PathSegment } from '../../lib/formValue.ts';
import { cellText } from '../../lib/schemaModel.ts';
import { FieldFrame } from './FieldFrame.tsx';
import { useRowForm } from './rowFormContext.ts';

const TABLE = `query FkTable($data: GetTableInput!) { table(data: $data) { schema } }`;
const ROWS = `query FkRows($data: GetRowsInput!) { rows(data: $data) { edges { node { id data } } } }`;
const LIMIT = 8;

type Option = { readonly id: string; readonly text: string };
type PickerProps = {
  readonly label: string;
  readonly trail: string;
  readonly node: JsonSchema;
  readonly value: string;
  readonly path: readonly PathSegment[];
  readonly onChange: (next: unknown) => void;
};

/** Rows of `tableId` whose id or label field contains `search` (case-insensitive), at most LIMIT. */
type Matches = { readonly options: readonly Option[]; readonly failed: boolean; readonly answered: boolean };

function useMatches(tableId: string, search: string, open: boolean): Matches {
  const api = useApi();
  const { revisionId } = useRowForm();
  const [field, setField] = useState<string | null | undefined>(undefined);
  const [result, setResult] = useState<Matches>({ options: [], failed: false, answered: false });
  useEffect(() => {
    let current = true;
    api.graphql<{ table: { schema: JsonSchema } }>(TABLE, { data: { revisionId, tableId } }).then(
      (d) => current && setField(labelField(d.table.schema)),
      () => current && setField(null),
    );
    return () => {
      current = false;
    };
  }, [api, revisionId, tableId]);
  useEffect(() => {
    if (!open || field === undefined) return undefined;
    let current = true;
    const q = search.trim();
    const byId = { id: { contains: q, mode: 'insensitive' } };
    const where = q === '' ? undefined : field ? { OR: [byId, { data: { path: [field], string_contains: q, mode: 'insensitive' } }] } : byId;
    const timer = setTimeout(() => {
      api.graphql<{ rows: Connection<Row> }>(ROWS, { data: { revisionId, tableId, first: LIMIT, ...(where ? { where } : {}) } }).then(
        (d) => current && setResult({ options: d.rows.edges.map(({ node }) => ({ id: node.id, text: field ? cellText((node.data as Record<string, unknown>)[field], 60) : '' })), failed: false, answered: true }),
        () => current && setResult({ options: [], failed: true, answered: true }),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, revisionId, tableId, field, search, open]);
  return result;
}

/**
 * A foreign key (domain.md §7) as a combobox: typing searches the referenced table's rows by id and by its first
 * text field; arrows move through the matches, Enter or a click picks one, Escape closes the list. The typed text
 * is the value until a row is picked, so an id can also be entered directly (the server checks it).
 */
export function ForeignKeyPicker({ label, trail, node, value, path, onChange }: PickerProps) {
  const tableId = node.foreignKey as string;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { options, failed, answered } = useMatches(tableId, value, open);
  const pick = (option: Option): void => {
    onChange(option.id);
    setOpen(false);
    setActive(-1);
  };
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path} hint={`A row id of table ${tableId}: type to search.`}>
      {(c) => (
        <div className="combobox">
          <input
            id={c.id}
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={`${c.id}-list`}
            aria-activedescendant={open && active >= 0 ? `${c.id}-option-${active}` : undefined}
            aria-invalid={c.invalid || undefined}
            aria-describedby={c.describedBy}
            readOnly={c.readOnly}
            value={value}
            onChange={(event) => {
              onChange(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onFocus={() => !c.readOnly && setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                setOpen(true);
                const step = event.key === 'ArrowDown' ? 1 : -1;
                setActive((i) => (options.length === 0 ? -1 : (i + step + options.length) % options.length));
              } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
                event.preventDefault();
                pick(options[active]);
              } else if (event.key === 'Escape') {
                setOpen(false);
              }
            }}
          />
          <ul id={`${c.id}-list`} role="listbox" aria-label={`Rows of ${tableId}`} hidden={!open || !answered}>
            {failed && <li className="hint">The rows of {tableId} could not be loaded.</li>}
            {!failed && options.length === 0 && <li className="hint">No row of {tableId} matches.</li>}
            {options.map((option, index) => (
              <li
                key={option.id}
                id={`${c.id}-option-${index}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(option);
                }}
              >
                <span className="option-id">{option.id}</span>
                {option.text && <span className="hint"> {option.text}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
    </FieldFrame>
  );
}
