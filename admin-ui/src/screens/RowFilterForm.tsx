import { useEffect, useState, type FormEvent } from 'react';
import { Checkbox, Select, TextField } from '../components/Fields.tsx';
import { OPERATORS, type RowFilter } from '../lib/rowQuery.ts';
import type { LeafColumn } from '../lib/schemaModel.ts';

type RowFilterFormProps = {
  readonly columns: readonly LeafColumn[];
  readonly filter: RowFilter | null;
  readonly onApply: (filter: RowFilter | null) => void;
  readonly error: string | null;
};

/** One condition on one data path (`where: {data: {path, <operator>: value}}`). */
export function RowFilterForm({ columns, filter, onApply, error }: RowFilterFormProps) {
  const [label, setLabel] = useState(filter?.column.label ?? columns[0]?.label ?? '');
  const column = columns.find((c) => c.label === label) ?? columns[0];
  const operators = column ? OPERATORS[column.kind] : [];
  const [op, setOp] = useState(filter?.op ?? 'equals');
  const [value, setValue] = useState(filter?.value ?? '');
  const [insensitive, setInsensitive] = useState(filter?.insensitive ?? false);
  // The filter comes from the address: Back, Forward or a link bring another one, which the fields then show.
  const shown = filter ? `${filter.column.label}|${filter.op}|${filter.value}|${String(filter.insensitive)}` : '';
  useEffect(() => {
    setLabel(filter?.column.label ?? columns[0]?.label ?? '');
    setOp(filter?.op ?? 'equals');
    setValue(filter?.value ?? '');
    setInsensitive(filter?.insensitive ?? false);
    // `shown` stands for `filter` by value; `columns` only matters when the filter changes.
  }, [shown]);
  if (!column) return null;
  const chosenOp = operators.some((o) => o.op === op) ? op : 'equals';

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    onApply({ column, op: chosenOp, value: column.kind === 'boolean' && value !== 'false' ? 'true' : value, insensitive });
  };
  return (
    <form className="filter-form" onSubmit={submit} aria-label="Filter rows">
      <Select label="Field" value={column.label} onChange={setLabel} options={columns.map((c) => ({ value: c.label, label: c.label }))} />
      <Select label="Operator" value={chosenOp} onChange={setOp} options={operators.map((o) => ({ value: o.op, label: o.label }))} />
      {column.kind === 'boolean' ? (
        <Select
          label="Value"
          value={value === 'false' ? 'false' : 'true'}
          onChange={setValue}
          options={[
            { value: 'true', label: 'true' },
            { value: 'false', label: 'false' },
          ]}
        />
      ) : (
        <TextField label="Value" value={value} onChange={setValue} inputMode={column.kind === 'number' ? 'decimal' : undefined} />
      )}
      {column.kind === 'string' && <Checkbox label="Ignore case" checked={insensitive} onChange={setInsensitive} />}
      <div className="actions">
        <button type="submit">Apply filter</button>
        <button type="button" disabled={!filter} onClick={() => onApply(null)}>
          Clear
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {filter && !error && (
        <p className="meta" role="status">
          Showing rows where {filter.column.label} {OPERATORS[filter.column.kind].find((o) => o.op === filter.op)?.label ?? filter.op} “{filter.value}
          ”
        </p>
      )}
    </form>
  );
}
