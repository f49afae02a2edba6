import { useEffect, useState } from 'react';
import { Checkbox, LabelText, Select, TextField } from '../../components/Fields.tsx';
import { SYSTEM_REFS, withKeyword, type NodeDraft } from '../../lib/schemaDraft.ts';
import { useSchemaEditor } from './schemaEditorContext.ts';

type NodeOptionsProps = {
  readonly node: NodeDraft;
  /** Makes every control's accessible name unique on the screen: "of field address › city". */
  readonly labelContext: string;
  readonly onChange: (node: NodeDraft) => void;
};

type IndexableProps = NodeOptionsProps & {
  /** A property outside arrays: it may be unique or indexed (domain.md §5.5). */
  readonly indexable: boolean;
};

const FORMATS = ['', 'date-time', 'date', 'time', 'email', 'regex'];
const MEDIA_TYPES = ['', 'text/plain', 'text/markdown', 'text/html', 'application/json', 'application/schema+json', 'application/yaml'];
const options = (values: readonly string[], none: string) => values.map((value) => ({ value, label: value === '' ? none : value }));
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A text input for one optional string keyword: empty removes it. */
function KeywordText({ node, labelContext, onChange, keyword, label, hint }: NodeOptionsProps & { keyword: string; label: string; hint?: string }) {
  return (
    <TextField
      label={label}
      labelContext={labelContext}
      value={text(node.keywords[keyword])}
      onChange={(value) => onChange(withKeyword(node, keyword, value === '' ? undefined : value))}
      {...(hint ? { hint } : {})}
    />
  );
}

/**
 * A number keyword as typed (`default`, a bound, a length): stored once the text is a number it accepts (a finite
 * number, or for `whole` a safe integer, non-negative for lengths); an empty optional one is removed. What does not
 * fit stays on screen with the reason, and the stored value is left as it was.
 */
function NumberKeyword({
  node,
  labelContext,
  onChange,
  keyword,
  label,
  whole,
  min,
  optional,
  hint,
}: NodeOptionsProps & { keyword: string; label: string; whole: boolean; min?: number; optional: boolean; hint?: string }) {
  const raw = node.keywords[keyword];
  const stored = typeof raw === 'number' ? String(raw) : '';
  const [value, setValue] = useState(stored);
  useEffect(() => setValue((current) => (current.trim() !== '' && Number(current) === Number(stored) ? current : stored)), [stored]);
  const n = Number(value);
  let problem: string | null = null;
  if (value.trim() === '') problem = optional ? null : 'Enter a number.';
  else if (!Number.isFinite(n)) problem = 'Enter a number.';
  else if (whole && !Number.isSafeInteger(n)) problem = 'Enter a whole number (at most 2^53 - 1 in size).';
  else if (min !== undefined && n < min) problem = `Enter ${min} or more.`;
  return (
    <TextField
      label={label}
      labelContext={labelContext}
      inputMode={whole && min !== undefined ? 'numeric' : 'decimal'}
      value={value}
      error={problem}
      {...(hint ? { hint } : {})}
      onChange={(next) => {
        setValue(next);
        const parsed = Number(next);
        if (next.trim() === '') {
          if (optional) onChange(withKeyword(node, keyword, undefined));
        } else if (Number.isFinite(parsed) && (!whole || Number.isSafeInteger(parsed)) && (min === undefined || parsed >= min)) {
          onChange(withKeyword(node, keyword, parsed));
        }
      }}
    />
  );
}

/** Default, minimum and maximum of a number or integer node (inclusive bounds, domain.md §5.1). */
function NumberOptions({ node, labelContext, onChange }: NodeOptionsProps) {
  const whole = node.kind === 'integer';
  const common = { node, labelContext, onChange, whole };
  return (
    <>
      <NumberKeyword {...common} keyword="default" label="Default" optional={false} />
      <div className="form-row">
        <NumberKeyword {...common} keyword="minimum" label="Minimum" optional hint="Inclusive; empty for none." />
        <NumberKeyword {...common} keyword="maximum" label="Maximum" optional hint="Inclusive; empty for none." />
      </div>
    </>
  );
}

/** A pair of non-negative whole-number bounds (`minLength`/`maxLength`, `minItems`/`maxItems`). */
function CountBounds({
  node,
  labelContext,
  onChange,
  keywords,
  labels,
  hint,
}: NodeOptionsProps & { keywords: [string, string]; labels: [string, string]; hint: string }) {
  const common = { node, labelContext, onChange, whole: true, min: 0, optional: true, hint };
  return (
    <div className="form-row">
      <NumberKeyword {...common} keyword={keywords[0]} label={labels[0]} />
      <NumberKeyword {...common} keyword={keywords[1]} label={labels[1]} />
    </div>
  );
}

/**
 * *Unique* (string, number, integer: no two rows hold the same value, "" exempt) and *Indexed* (those and boolean)
 * for properties outside arrays; a unique field is always indexed, so *Indexed* shows checked and fixed.
 */
function IndexOptions({ node, labelContext, onChange }: NodeOptionsProps) {
  const unique = node.keywords['x-unique'] === true;
  return (
    <>
      {node.kind !== 'boolean' && (
        <Checkbox
          label="Unique"
          labelContext={labelContext}
          checked={unique}
          onChange={(checked) => onChange(withKeyword(node, 'x-unique', checked ? true : undefined))}
        />
      )}
      <Checkbox
        label="Indexed"
        labelContext={labelContext}
        checked={unique || node.keywords['x-index'] === true}
        disabled={unique}
        onChange={(checked) => onChange(withKeyword(node, 'x-index', checked ? true : undefined))}
      />
    </>
  );
}

function StringOptions({ node, labelContext, onChange }: NodeOptionsProps) {
  const { tableId, tables } = useSchemaEditor();
  const enumText = Array.isArray(node.keywords.enum) ? (node.keywords.enum as string[]).join('\n') : '';
  const [values, setValues] = useState(enumText);
  useEffect(() => setValues((current) => (current.split('\n').filter(Boolean).join('\n') === enumText ? current : enumText)), [enumText]);
  return (
    <>
      <TextField
        label="Default"
        labelContext={labelContext}
        value={text(node.keywords.default)}
        onChange={(value) => onChange(withKeyword(node, 'default', value))}
      />
      <CountBounds
        node={node}
        labelContext={labelContext}
        onChange={onChange}
        keywords={['minLength', 'maxLength']}
        labels={['Minimum length', 'Maximum length']}
        hint="In characters; empty for none."
      />
      <KeywordText
        node={node}
        labelContext={labelContext}
        onChange={onChange}
        keyword="pattern"
        label="Pattern"
        hint="Regular expression (RE2 subset), checked by the server."
      />
      <div className="field">
        <label>
          <LabelText label="Enum: the allowed strings, one per line" labelContext={labelContext} />
          <textarea
            rows={3}
            value={values}
            onChange={(event) => {
              setValues(event.target.value);
              const list = event.target.value.split('\n').filter((line) => line !== '');
              onChange(withKeyword(node, 'enum', list.length === 0 ? undefined : list));
            }}
          />
        </label>
      </div>
      <Select
        label="Format"
        labelContext={labelContext}
        value={text(node.keywords.format)}
        options={options(FORMATS, '(none)')}
        onChange={(value) => onChange(withKeyword(node, 'format', value || undefined))}
      />
      <Select
        label="Media type"
        labelContext={labelContext}
        value={text(node.keywords.contentMediaType)}
        options={options(MEDIA_TYPES, '(none)')}
        onChange={(value) => onChange(withKeyword(node, 'contentMediaType', value || undefined))}
      />
      <Select
        label="Foreign key"
        labelContext={labelContext}
        value={text(node.keywords.foreignKey)}
        options={options(['', ...tables.filter((id) => id !== tableId)], '(none)')}
        onChange={(value) => onChange(withKeyword(node, 'foreignKey', value || undefined))}
      />
    </>
  );
}

/**
 * The keywords of one node by its kind (domain.md §5.1, §5.5): default, bounds, lengths, item counts, description,
 * the string keywords, and *Unique* / *Indexed* on properties outside arrays.
 */
export function NodeOptions({ node, labelContext, indexable, onChange }: IndexableProps) {
  const leaf = node.kind === 'string' || node.kind === 'number' || node.kind === 'integer' || node.kind === 'boolean';
  return (
    <div className="node-options">
      {node.kind === 'ref' && (
        <Select
          label="System field"
          labelContext={labelContext}
          value={text(node.keywords.$ref)}
          options={options(SYSTEM_REFS, '')}
          onChange={(value) => onChange(withKeyword(node, '$ref', value))}
        />
      )}
      {node.kind === 'string' && <StringOptions node={node} labelContext={labelContext} onChange={onChange} />}
      {(node.kind === 'number' || node.kind === 'integer') && <NumberOptions node={node} labelContext={labelContext} onChange={onChange} />}
      {node.kind === 'array' && (
        <CountBounds
          node={node}
          labelContext={labelContext}
          onChange={onChange}
          keywords={['minItems', 'maxItems']}
          labels={['Minimum items', 'Maximum items']}
          hint="Empty for none; new rows start with no items."
        />
      )}
      {node.kind === 'boolean' && (
        <Checkbox
          label="Default: true"
          labelContext={labelContext}
          checked={node.keywords.default === true}
          onChange={(checked) => onChange(withKeyword(node, 'default', checked))}
        />
      )}
      <KeywordText node={node} labelContext={labelContext} onChange={onChange} keyword="description" label="Description" />
      {leaf && (
        <Checkbox
          label="Read-only"
          labelContext={labelContext}
          checked={node.keywords.readOnly === true}
          onChange={(checked) => onChange(withKeyword(node, 'readOnly', checked ? true : undefined))}
        />
      )}
      {leaf && indexable && <IndexOptions node={node} labelContext={labelContext} onChange={onChange} />}
    </div>
  );
}
