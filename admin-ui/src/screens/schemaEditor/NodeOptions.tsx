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

/** The number default as typed; stored once it is a finite number. */
function NumberDefault({ node, labelContext, onChange }: NodeOptionsProps) {
  const stored = typeof node.keywords.default === 'number' ? node.keywords.default : 0;
  const [value, setValue] = useState(String(stored));
  useEffect(() => setValue((current) => (Number(current) === stored && current.trim() !== '' ? current : String(stored))), [stored]);
  return (
    <TextField
      label="Default"
      labelContext={labelContext}
      inputMode="decimal"
      value={value}
      onChange={(next) => {
        setValue(next);
        if (next.trim() !== '' && Number.isFinite(Number(next))) onChange(withKeyword(node, 'default', Number(next)));
      }}
    />
  );
}

function StringOptions({ node, labelContext, onChange }: NodeOptionsProps) {
  const { tableId, tables } = useSchemaEditor();
  const enumText = Array.isArray(node.keywords.enum) ? (node.keywords.enum as string[]).join('\n') : '';
  const [values, setValues] = useState(enumText);
  useEffect(() => setValues((current) => (current.split('\n').filter(Boolean).join('\n') === enumText ? current : enumText)), [enumText]);
  return (
    <>
      <TextField label="Default" labelContext={labelContext} value={text(node.keywords.default)} onChange={(value) => onChange(withKeyword(node, 'default', value))} />
      <KeywordText node={node} labelContext={labelContext} onChange={onChange} keyword="pattern" label="Pattern" hint="Regular expression (RE2 subset), checked by the server." />
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
      <Select label="Format" labelContext={labelContext} value={text(node.keywords.format)} options={options(FORMATS, '(none)')} onChange={(value) => onChange(withKeyword(node, 'format', value || undefined))} />
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

/** The keywords of one node by its kind (domain.md §5.1): default, description, and the string keywords. */
export function NodeOptions({ node, labelContext, onChange }: NodeOptionsProps) {
  const leaf = node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean';
  return (
    <div className="node-options">
      {node.kind === 'ref' && (
        <Select label="System field" labelContext={labelContext} value={text(node.keywords.$ref)} options={options(SYSTEM_REFS, '')} onChange={(value) => onChange(withKeyword(node, '$ref', value))} />
      )}
      {node.kind === 'string' && <StringOptions node={node} labelContext={labelContext} onChange={onChange} />}
      {node.kind === 'number' && <NumberDefault node={node} labelContext={labelContext} onChange={onChange} />}
      {node.kind === 'boolean' && <Checkbox label="Default: true" labelContext={labelContext} checked={node.keywords.default === true} onChange={(checked) => onChange(withKeyword(node, 'default', checked))} />}
      <KeywordText node={node} labelContext={labelContext} onChange={onChange} keyword="description" label="Description" />
      {leaf && (
        <Checkbox label="Read-only" labelContext={labelContext} checked={node.keywords.readOnly === true} onChange={(checked) => onChange(withKeyword(node, 'readOnly', checked ? true : undefined))} />
      )}
    </div>
  );
}
