import type { ErrorDetail } from '../../api/apiError.ts';
import { Select, TextField } from '../../components/Fields.tsx';
import { escapePointerSegment } from '../../lib/jsonPointer.ts';
import { moveItem } from '../../lib/formValue.ts';
import { newField, newNode, type FieldDraft, type NodeDraft, type NodeKind } from '../../lib/schemaDraft.ts';
import { NodeOptions } from './NodeOptions.tsx';
import { ownsDetail, useSchemaEditor } from './schemaEditorContext.ts';

const KINDS: readonly { value: NodeKind; label: string }[] = [
  { value: 'string', label: 'string' },
  { value: 'number', label: 'number' },
  { value: 'boolean', label: 'boolean' },
  { value: 'object', label: 'object' },
  { value: 'array', label: 'array' },
  { value: 'ref', label: 'system value ($ref)' },
];

function NodeProblems({ pointer }: { readonly pointer: string }) {
  const { details } = useSchemaEditor();
  const mine = details.filter((detail: ErrorDetail) => ownsDetail(pointer, detail.path ?? ''));
  if (mine.length === 0) return null;
  return (
    <ul className="detail-list" aria-label={`Problems at ${pointer}`}>
      {mine.map((detail, index) => (
        <li key={index}>
          <code>{detail.path}</code>: {detail.message ?? 'invalid'}
        </li>
      ))}
    </ul>
  );
}

/** What a node holds below its keywords: an object's fields, or an array's items (any kind, to full depth). */
function NodeBody({ node, pointer, label, onChange }: { readonly node: NodeDraft; readonly pointer: string; readonly label: string; readonly onChange: (node: NodeDraft) => void }) {
  return (
    <>
      <NodeOptions node={node} onChange={onChange} />
      <NodeProblems pointer={pointer} />
      {node.kind === 'object' && <FieldList fields={node.fields} pointer={pointer} owner={label} onChange={(fields) => onChange({ ...node, fields })} />}
      {node.kind === 'array' && node.items && (
        <fieldset className="schema-items" data-field={`${pointer}/items`}>
          <legend>Items of {label}</legend>
          <Select
            label={`Item type of ${label}`}
            value={node.items.kind}
            options={KINDS.filter((kind) => kind.value !== 'ref')}
            onChange={(kind) => onChange({ ...node, items: newNode(kind as NodeKind, node.items ?? undefined) })}
          />
          <NodeBody node={node.items} pointer={`${pointer}/items`} label={`${label} item`} onChange={(items) => onChange({ ...node, items })} />
        </fieldset>
      )}
    </>
  );
}

type FieldEditorProps = {
  readonly field: FieldDraft;
  readonly pointer: string;
  readonly index: number;
  readonly count: number;
  readonly onChange: (field: FieldDraft) => void;
  readonly onMove: (to: number) => void;
  readonly onRemove: () => void;
};

function FieldEditor({ field, pointer, index, count, onChange, onMove, onRemove }: FieldEditorProps) {
  const { nameProblems } = useSchemaEditor();
  const at = `${pointer}/properties/${escapePointerSegment(field.name)}`;
  const name = field.name || 'new field';
  return (
    <li className="schema-field" data-field={at}>
      <fieldset>
        <legend>{name}</legend>
        <div className="form-row">
          <TextField label="Name" value={field.name} onChange={(next) => onChange({ ...field, name: next })} error={nameProblems.get(`${pointer}/properties/#${field.key}`) ?? null} />
          <Select label="Type" value={field.node.kind} options={KINDS} onChange={(kind) => onChange({ ...field, node: newNode(kind as NodeKind, field.node) })} />
          <div className="actions">
            <button type="button" aria-label={`Move ${name} up in the schema`} disabled={index === 0} onClick={() => onMove(index - 1)}>
              ↑
            </button>
            <button type="button" aria-label={`Move ${name} down in the schema`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
              ↓
            </button>
            <button type="button" className="danger" aria-label={`Remove ${name} from the schema`} onClick={onRemove}>
              Remove
            </button>
          </div>
        </div>
        <NodeBody node={field.node} pointer={at} label={name} onChange={(node) => onChange({ ...field, node })} />
      </fieldset>
    </li>
  );
}

type FieldListProps = { readonly fields: readonly FieldDraft[]; readonly pointer: string; readonly owner: string; readonly onChange: (fields: FieldDraft[]) => void };

/** The fields of an object node in order, each with name, type, options, reorder and remove; plus "Add field". */
export function FieldList({ fields, pointer, owner, onChange }: FieldListProps) {
  const add = (): void => {
    const taken = new Set(fields.map((f) => f.name));
    let n = fields.length + 1;
    while (taken.has(`field${n}`)) n++;
    onChange([...fields, newField(`field${n}`)]);
  };
  return (
    <div className="schema-fields">
      {fields.length === 0 && <p className="hint">No fields.</p>}
      <ol className="schema-field-list">
        {fields.map((field, index) => (
          <FieldEditor
            key={field.key}
            field={field}
            pointer={pointer}
            index={index}
            count={fields.length}
            onChange={(next) => onChange(fields.map((f) => (f.key === field.key ? next : f)))}
            onMove={(to) => onChange(moveItem(fields, index, to))}
            onRemove={() => onChange(fields.filter((f) => f.key !== field.key))}
          />
        ))}
      </ol>
      <button type="button" onClick={add}>
        Add field to {owner}
      </button>
    </div>
  );
}
