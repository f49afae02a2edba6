import { useId } from 'react';
import type { JsonSchema } from '../../api/types.ts';
import { pointerOf } from '../../lib/jsonPointer.ts';
import { moveItem, setIn } from '../../lib/formValue.ts';
import { defaultValue } from '../../lib/schemaModel.ts';
import { FieldErrors, useFieldErrors } from './FieldFrame.tsx';
import { BooleanControl, NumberControl, StringControl, SystemControl, type LeafProps } from './LeafControls.tsx';

/** The control for one schema node: a leaf input, a fieldset for an object, an editable list for an array. */
export function FieldControl(props: LeafProps) {
  const { node } = props;
  if (node.$ref !== undefined) return <SystemControl {...props} />;
  switch (node.type) {
    case 'object':
      return <ObjectFieldset {...props} />;
    case 'array':
      return <ArrayField {...props} />;
    case 'number':
      return <NumberControl {...props} />;
    case 'boolean':
      return <BooleanControl {...props} />;
    default:
      return <StringControl {...props} />;
  }
}

/** One control per property, in schema order. */
export function PropertyControls({ node, value, path, onChange }: Omit<LeafProps, 'label'>) {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return (
    <>
      {Object.entries(node.properties ?? {}).map(([name, child]) => (
        <FieldControl
          key={name}
          label={typeof child.title === 'string' && child.title !== '' ? child.title : name}
          node={child}
          value={record[name]}
          path={[...path, name]}
          onChange={(next) => onChange(setIn(record, [name], next))}
        />
      ))}
    </>
  );
}

function NodeHeader({ label, node, path }: { readonly label: string; readonly node: JsonSchema; readonly path: LeafProps['path'] }) {
  const id = useId();
  const messages = useFieldErrors(path);
  return (
    <>
      <legend>{label}</legend>
      {typeof node.description === 'string' && node.description !== '' && <p className="hint">{node.description}</p>}
      <FieldErrors id={id} messages={messages} />
    </>
  );
}

function ObjectFieldset(props: LeafProps) {
  return (
    <fieldset className="form-fieldset" data-path={pointerOf(props.path)}>
      <NodeHeader label={props.label} node={props.node} path={props.path} />
      <PropertyControls node={props.node} value={props.value} path={props.path} onChange={props.onChange} />
    </fieldset>
  );
}

/** An array: its items in order, each with move up/down and remove; a button adds an item at its default. */
function ArrayField({ label, node, value, path, onChange }: LeafProps) {
  const items = Array.isArray(value) ? (value as unknown[]) : [];
  const itemNode = node.items ?? { type: 'string', default: '' };
  return (
    <fieldset className="form-fieldset form-array" data-path={pointerOf(path)}>
      <NodeHeader label={label} node={node} path={path} />
      {items.length === 0 && <p className="hint">No items.</p>}
      <ol className="array-items">
        {items.map((item, index) => {
          const itemLabel = `${label} ${index + 1}`;
          return (
            <li key={index}>
              <FieldControl label={itemLabel} node={itemNode} value={item} path={[...path, index]} onChange={(next) => onChange(setIn(items, [index], next))} />
              <div className="actions item-actions">
                <button type="button" aria-label={`Move ${itemLabel} up`} disabled={index === 0} onClick={() => onChange(moveItem(items, index, index - 1))}>
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${itemLabel} down`}
                  disabled={index === items.length - 1}
                  onClick={() => onChange(moveItem(items, index, index + 1))}
                >
                  ↓
                </button>
                <button type="button" aria-label={`Remove ${itemLabel}`} onClick={() => onChange(items.filter((_, i) => i !== index))}>
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...items, defaultValue(itemNode)])}>
        Add to {label}
      </button>
    </fieldset>
  );
}
