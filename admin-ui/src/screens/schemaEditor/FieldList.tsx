import { useLayoutEffect, useRef } from 'react';
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
  { value: 'integer', label: 'integer' },
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

type NodeBodyProps = {
  readonly node: NodeDraft;
  readonly pointer: string;
  /** The node as a user names it: "address › city" for a field, "tags item" for an array's items. */
  readonly label: string;
  /** What makes the names of this node's controls unique: "of field address › city". */
  readonly labelContext: string;
  /** Whether the node sits inside an array (x-unique and x-index are for properties outside arrays). */
  readonly inArray: boolean;
  readonly onChange: (node: NodeDraft) => void;
};

/** What a node holds below its keywords: an object's fields, or an array's items (any kind, to full depth). */
function NodeBody({ node, pointer, label, labelContext, inArray, isProperty, onChange }: NodeBodyProps & { readonly isProperty: boolean }) {
  return (
    <>
      <NodeOptions node={node} labelContext={labelContext} indexable={isProperty && !inArray} onChange={onChange} />
      <NodeProblems pointer={pointer} />
      {node.kind === 'object' && (
        <FieldList
          fields={node.fields}
          pointer={pointer}
          owner={label}
          trail={label}
          inArray={inArray}
          onChange={(fields) => onChange({ ...node, fields })}
        />
      )}
      {node.kind === 'array' && node.items && (
        <fieldset className="schema-items" data-field={`${pointer}/items`}>
          <legend>Items of {label}</legend>
          <Select
            label={`Item type of ${label}`}
            value={node.items.kind}
            options={KINDS.filter((kind) => kind.value !== 'ref')}
            onChange={(kind) => onChange({ ...node, items: newNode(kind as NodeKind, node.items ?? undefined) })}
          />
          <NodeBody
            node={node.items}
            pointer={`${pointer}/items`}
            label={`${label} item`}
            labelContext={`of ${label} item`}
            inArray
            isProperty={false}
            onChange={(items) => onChange({ ...node, items })}
          />
        </fieldset>
      )}
    </>
  );
}

type FieldEditorProps = {
  readonly field: FieldDraft;
  readonly pointer: string;
  /** Where the enclosing object sits ("address"), '' at the top of the schema. */
  readonly trail: string;
  readonly inArray: boolean;
  readonly index: number;
  readonly count: number;
  readonly onChange: (field: FieldDraft) => void;
  readonly onMove: (to: number) => void;
  readonly onRemove: () => void;
};

function FieldEditor({ field, pointer, trail, inArray, index, count, onChange, onMove, onRemove }: FieldEditorProps) {
  const { nameProblems } = useSchemaEditor();
  const at = `${pointer}/properties/${escapePointerSegment(field.name)}`;
  const name = field.name || 'new field';
  // Every control of the editor names its field by its whole path, so each accessible name is unique on the screen.
  const where = trail === '' ? name : `${trail} › ${name}`;
  const context = `of field ${where}`;
  return (
    <li className="schema-field" data-field={at}>
      <fieldset>
        <legend>{name}</legend>
        <div className="form-row">
          <TextField
            label="Name"
            labelContext={context}
            value={field.name}
            onChange={(next) => onChange({ ...field, name: next })}
            error={nameProblems.get(`${pointer}/properties/#${field.key}`) ?? null}
          />
          <Select
            label="Type"
            labelContext={context}
            value={field.node.kind}
            options={KINDS}
            onChange={(kind) => onChange({ ...field, node: newNode(kind as NodeKind, field.node) })}
          />
          <div className="actions">
            <button type="button" aria-label={`Move ${where} up in the schema`} disabled={index === 0} onClick={() => onMove(index - 1)}>
              ↑
            </button>
            <button type="button" aria-label={`Move ${where} down in the schema`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
              ↓
            </button>
            <button type="button" className="danger" aria-label={`Remove ${where} from the schema`} onClick={onRemove}>
              Remove
            </button>
          </div>
        </div>
        <NodeBody
          node={field.node}
          pointer={at}
          label={where}
          labelContext={context}
          inArray={inArray}
          isProperty
          onChange={(node) => onChange({ ...field, node })}
        />
      </fieldset>
    </li>
  );
}

type FieldListProps = {
  readonly fields: readonly FieldDraft[];
  readonly pointer: string;
  /** What "Add field to …" names: the table at the top, else the object node. */
  readonly owner: string;
  /** Where these fields sit ("address"), '' at the top of the schema. */
  readonly trail: string;
  /** Whether these fields belong to an object inside an array. */
  readonly inArray?: boolean;
  readonly onChange: (fields: FieldDraft[]) => void;
};

/**
 * The fields of an object node in order, each with name, type, options, reorder and remove; plus "Add field",
 * which moves the focus to the new field's name (selected, so typing replaces it).
 */
export function FieldList({ fields, pointer, owner, trail, inArray = false, onChange }: FieldListProps) {
  const list = useRef<HTMLOListElement>(null);
  const focusAdded = useRef(false);
  useLayoutEffect(() => {
    if (!focusAdded.current) return;
    focusAdded.current = false;
    const name = list.current?.lastElementChild?.querySelector('input');
    name?.focus();
    name?.select();
  }, [fields.length]);
  const add = (): void => {
    const taken = new Set(fields.map((f) => f.name));
    let n = fields.length + 1;
    while (taken.has(`field${n}`)) n++;
    focusAdded.current = true;
    onChange([...fields, newField(`field${n}`)]);
  };
  return (
    <div className="schema-fields">
      {fields.length === 0 && <p className="hint">No fields.</p>}
      <ol className="schema-field-list" ref={list}>
        {fields.map((field, index) => (
          <FieldEditor
            key={field.key}
            field={field}
            pointer={pointer}
            trail={trail}
            inArray={inArray}
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
