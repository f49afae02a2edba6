import { useId, useLayoutEffect, useRef } from 'react';
import type { JsonSchema } from '../../api/types.ts';
import { pointerOf } from '../../lib/jsonPointer.ts';
import { extraProperties, moveItem, setIn, valueMismatch, withoutProperty } from '../../lib/formValue.ts';
import { defaultValue } from '../../lib/schemaModel.ts';
import { JsonValue } from '../JsonValue.tsx';
import { LabelText } from '../Fields.tsx';
import { FieldErrors, fieldName, trailContext, useFieldErrors } from './FieldFrame.tsx';
import { BooleanControl, NumberControl, StringControl, SystemControl, type LeafProps } from './LeafControls.tsx';

/**
 * The control for one schema node: a leaf input, a fieldset for an object, an editable list for an array. A value
 * the control cannot show as it is (a string in a number field, a missing value) is shown as it is and flagged.
 */
export function FieldControl(props: LeafProps) {
  const { node } = props;
  const mismatch = valueMismatch(node, props.value);
  if (mismatch !== null) return <MismatchedValue {...props} problem={mismatch} />;
  if (node.$ref !== undefined) return <SystemControl {...props} />;
  switch (node.type) {
    case 'object':
      return <ObjectFieldset {...props} />;
    case 'array':
      return <ArrayField {...props} />;
    case 'number':
    case 'integer':
      return <NumberControl {...props} />;
    case 'boolean':
      return <BooleanControl {...props} />;
    default:
      return <StringControl {...props} />;
  }
}

type PropertyControlsProps = Omit<LeafProps, 'label'> & {
  /** The name of the object these properties belong to, as their trail continues it ('' for the row itself). */
  readonly owner: string;
};

/** One control per property, in schema order, then the properties the schema does not declare. */
export function PropertyControls({ node, value, path, trail, owner, onChange }: PropertyControlsProps) {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const inner = owner === '' ? trail : trail === '' ? owner : `${trail} › ${owner}`;
  return (
    <>
      {Object.entries(node.properties ?? {}).map(([name, child]) => (
        <FieldControl
          key={name}
          label={typeof child.title === 'string' && child.title !== '' ? child.title : name}
          trail={inner}
          node={child}
          value={record[name]}
          path={[...path, name]}
          onChange={(next) => onChange(setIn(record, [name], next))}
        />
      ))}
      <ExtraProperties node={node} record={record} path={path} trail={inner} onChange={onChange} />
    </>
  );
}

type ExtraPropertiesProps = {
  readonly node: JsonSchema;
  readonly record: Readonly<Record<string, unknown>>;
  readonly path: LeafProps['path'];
  readonly trail: string;
  readonly onChange: (next: unknown) => void;
};

/** Properties of the row that the schema does not declare: sent as they are (and refused), each with Remove. */
function ExtraProperties({ node, record, path, trail, onChange }: ExtraPropertiesProps) {
  const id = useId();
  const extra = extraProperties(node, record);
  if (extra.length === 0) return null;
  const where = trail === '' ? 'the row' : trail;
  return (
    <div className="extra-properties" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-note`} data-path={pointerOf(path)}>
      <p className="extra-title" id={`${id}-title`}>
        Not in the schema{trail === '' ? '' : ` (${trail})`}
      </p>
      <p className="field-error" id={`${id}-note`}>
        The schema does not declare {extra.length === 1 ? 'this property' : 'these properties'} of {where}.{' '}
        {extra.length === 1 ? 'It is' : 'They are'} sent as {extra.length === 1 ? 'it is' : 'they are'} and the server refuses the row: remove{' '}
        {extra.length === 1 ? 'it' : 'them'}.
      </p>
      <ul className="extra-list">
        {extra.map((name) => (
          <li key={name} data-path={pointerOf([...path, name])}>
            <code>{name}</code>: <JsonValue value={record[name]} missing="null" />
            <button type="button" onClick={() => onChange(withoutProperty(record, name))}>
              Remove {name}
              <span className="visually-hidden"> from {where}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A value its field's control cannot show: the value as it is, what is wrong, and a button to replace it. */
function MismatchedValue({ label, trail, node, value, path, onChange, problem }: LeafProps & { readonly problem: string }) {
  const id = useId();
  const messages = useFieldErrors(path);
  const replacement = defaultValue(node);
  const name = fieldName(label, trail);
  const missing = value === undefined;
  const shown = typeof replacement === 'object' && replacement !== null && !Array.isArray(replacement) ? 'its default' : JSON.stringify(replacement);
  const describedBy = messages.length > 0 ? `${id}-problem ${id}-error` : `${id}-problem`;
  return (
    <div
      className="field form-field field-mismatch"
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={describedBy}
      data-path={pointerOf(path)}
    >
      <span className="mismatch-label" id={`${id}-label`}>
        <LabelText label={label} labelContext={trailContext(trail)} />
      </span>
      {!missing && (
        <span className="mismatch-value">
          <JsonValue value={value} missing="null" />
        </span>
      )}
      <span className="field-error" id={`${id}-problem`}>
        {problem} {missing ? 'The server refuses the row without it.' : 'It is sent as it is, so the server may refuse the row.'}
      </span>
      <FieldErrors id={`${id}-error`} messages={messages} />
      <button type="button" onClick={() => onChange(replacement)}>
        {missing ? 'Add' : 'Replace'} {name} with {shown}
      </button>
    </div>
  );
}

function NodeHeader({
  label,
  trail,
  node,
  path,
}: {
  readonly label: string;
  readonly trail: string;
  readonly node: JsonSchema;
  readonly path: LeafProps['path'];
}) {
  const id = useId();
  const messages = useFieldErrors(path);
  return (
    <>
      <legend>
        <LabelText label={label} labelContext={trailContext(trail)} />
      </legend>
      {typeof node.description === 'string' && node.description !== '' && <p className="hint">{node.description}</p>}
      <FieldErrors id={id} messages={messages} />
    </>
  );
}

function ObjectFieldset(props: LeafProps) {
  return (
    <fieldset className="form-fieldset" data-path={pointerOf(props.path)}>
      <NodeHeader label={props.label} trail={props.trail} node={props.node} path={props.path} />
      <PropertyControls node={props.node} value={props.value} path={props.path} trail={props.trail} owner={props.label} onChange={props.onChange} />
    </fieldset>
  );
}

/** The first control of an item a user would type into (else its first button). */
const FIRST_CONTROL = 'input:not([readonly]):not([disabled]), select:not([disabled]), textarea:not([readonly]), button:not([disabled])';

/**
 * An array: its items in order, each with move up/down and remove; a button adds an item at its default and moves
 * the focus into it, so what is typed next lands in the new item.
 */
function ArrayField({ label, trail, node, value, path, onChange }: LeafProps) {
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const itemNode = node.items ?? { type: 'string', default: '' };
  const list = useRef<HTMLOListElement>(null);
  const focusAdded = useRef(false);
  const name = fieldName(label, trail);
  useLayoutEffect(() => {
    if (!focusAdded.current) return;
    focusAdded.current = false;
    list.current?.lastElementChild?.querySelector<HTMLElement>(FIRST_CONTROL)?.focus();
  }, [items.length]);
  return (
    <fieldset className="form-fieldset form-array" data-path={pointerOf(path)}>
      <NodeHeader label={label} trail={trail} node={node} path={path} />
      {items.length === 0 && <p className="hint">No items.</p>}
      <ol className="array-items" ref={list}>
        {items.map((item, index) => {
          const itemLabel = `${label} ${index + 1}`;
          const itemName = fieldName(itemLabel, trail);
          return (
            <li key={index}>
              <FieldControl
                label={itemLabel}
                trail={trail}
                node={itemNode}
                value={item}
                path={[...path, index]}
                onChange={(next) => onChange(setIn(items, [index], next))}
              />
              <div className="actions item-actions">
                <button
                  type="button"
                  aria-label={`Move ${itemName} up`}
                  disabled={index === 0}
                  onClick={() => onChange(moveItem(items, index, index - 1))}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${itemName} down`}
                  disabled={index === items.length - 1}
                  onClick={() => onChange(moveItem(items, index, index + 1))}
                >
                  ↓
                </button>
                <button type="button" aria-label={`Remove ${itemName}`} onClick={() => onChange(items.filter((_, i) => i !== index))}>
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        onClick={() => {
          focusAdded.current = true;
          onChange([...items, defaultValue(itemNode)]);
        }}
      >
        Add to {name}
      </button>
    </fieldset>
  );
}
