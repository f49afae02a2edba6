import { useEffect, useState } from 'react';
import type { JsonSchema } from '../../api/types.ts';
import { fromDateTimeInput, stringControlKind, toDateTimeInput, type PathSegment } from '../../lib/formValue.ts';
import { FieldFrame } from './FieldFrame.tsx';
import { ForeignKeyPicker } from './ForeignKeyPicker.tsx';

export type LeafProps = {
  readonly label: string;
  /** Where the field sits, for its accessible name ("meta › source"); '' at the top of the row. */
  readonly trail: string;
  readonly node: JsonSchema;
  readonly value: unknown;
  readonly path: readonly PathSegment[];
  readonly onChange: (next: unknown) => void;
};

/**
 * A number input (whole numbers for an integer field); what the user types stays on screen until it is a finite
 * number, which is then stored (the server checks integers and bounds).
 */
export function NumberControl({ label, trail, node, value, path, onChange }: LeafProps) {
  const stored = typeof value === 'number' ? value : 0;
  const [text, setText] = useState(String(stored));
  useEffect(() => setText((current) => (Number(current) === stored && current.trim() !== '' ? current : String(stored))), [stored]);
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path}>
      {(c) => (
        <input
          id={c.id}
          type="number"
          step={node.type === 'integer' ? 1 : 'any'}
          inputMode={node.type === 'integer' ? 'numeric' : 'decimal'}
          value={text}
          readOnly={c.readOnly}
          aria-invalid={c.invalid || undefined}
          aria-describedby={c.describedBy}
          onChange={(event) => {
            setText(event.target.value);
            const n = Number(event.target.value);
            if (event.target.value.trim() !== '' && Number.isFinite(n)) onChange(n);
          }}
        />
      )}
    </FieldFrame>
  );
}

export function BooleanControl({ label, trail, node, value, path, onChange }: LeafProps) {
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path} checkbox>
      {(c) => (
        <input
          id={c.id}
          type="checkbox"
          checked={value === true}
          disabled={c.readOnly}
          aria-invalid={c.invalid || undefined}
          aria-describedby={c.describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
      )}
    </FieldFrame>
  );
}

const INPUT_TYPES = { date: 'date', email: 'email', time: 'text', text: 'text' } as const;
const HINTS: Partial<Record<string, string>> = {
  'date-time': 'Date and time in UTC.',
  time: 'Time with offset, e.g. 09:30:00Z.',
  'text/markdown': 'Markdown.',
  'text/html': 'HTML.',
  'application/json': 'JSON text.',
  'application/schema+json': 'JSON Schema text.',
  'application/yaml': 'YAML text.',
};

/** A string field: select for `enum`, picker for `foreignKey`, date pickers by `format`, text area by media type. */
export function StringControl({ label, trail, node, value, path, onChange }: LeafProps) {
  const text = typeof value === 'string' ? value : '';
  const kind = stringControlKind(node);
  if (kind === 'foreignKey') return <ForeignKeyPicker label={label} trail={trail} node={node} value={text} path={path} onChange={onChange} />;
  const hint = HINTS[kind] ?? (typeof node.contentMediaType === 'string' ? HINTS[node.contentMediaType] : undefined);
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path} {...(hint ? { hint } : {})}>
      {(c) => {
        const common = { id: c.id, 'aria-invalid': c.invalid || undefined, 'aria-describedby': c.describedBy };
        if (kind === 'enum') {
          const options = (node.enum as string[]).includes(text) ? (node.enum as string[]) : [text, ...(node.enum as string[])];
          return (
            <select {...common} value={text} disabled={c.readOnly} onChange={(event) => onChange(event.target.value)}>
              {options.map((option) => (
                <option key={option} value={option}>
                  {option === '' ? '(empty)' : option}
                </option>
              ))}
            </select>
          );
        }
        if (kind === 'multiline') {
          return <textarea {...common} rows={6} value={text} readOnly={c.readOnly} onChange={(event) => onChange(event.target.value)} />;
        }
        if (kind === 'date-time') {
          return (
            <input
              {...common}
              type="datetime-local"
              step={1}
              value={toDateTimeInput(text)}
              readOnly={c.readOnly}
              onChange={(event) => onChange(fromDateTimeInput(event.target.value))}
            />
          );
        }
        return <input {...common} type={INPUT_TYPES[kind]} value={text} readOnly={c.readOnly} onChange={(event) => onChange(event.target.value)} />;
      }}
    </FieldFrame>
  );
}

/** A system field (`$ref`, domain.md §5.3): the server fills it on read and stores "". */
export function SystemControl({ label, trail, node, value, path }: LeafProps) {
  return (
    <FieldFrame label={label} trail={trail} node={node} path={path} hint="Filled by the server.">
      {(c) => <input id={c.id} value={typeof value === 'string' ? value : ''} readOnly aria-describedby={c.describedBy} />}
    </FieldFrame>
  );
}
