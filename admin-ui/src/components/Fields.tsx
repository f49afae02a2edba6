import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

/**
 * Words that make a control's accessible name unique on its screen (admin-ui.md §4) without repeating them on
 * screen: "Name" reads "Name of field address › city" to a screen reader.
 */
type LabelContext = { readonly labelContext?: string };

/** A label's visible text followed by its context, hidden from view but part of the accessible name. */
export function LabelText({ label, labelContext }: { readonly label: ReactNode } & LabelContext) {
  return (
    <>
      {label}
      {labelContext && <span className="visually-hidden"> {labelContext}</span>}
    </>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> &
  LabelContext & {
    readonly label: string;
    readonly value: string;
    readonly onChange: (value: string) => void;
    readonly hint?: string;
    readonly error?: string | null;
  };

/** A labelled text input with an optional hint and error, both tied to it for screen readers. */
export function TextField({ label, labelContext, value, onChange, hint, error, ...rest }: TextFieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>
        <LabelText label={label} labelContext={labelContext} />
      </label>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...rest}
      />
      {hint && (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

type CheckboxProps = LabelContext & {
  readonly label: ReactNode;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
  readonly disabled?: boolean;
};

export function Checkbox({ label, labelContext, checked, onChange, disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>
        <LabelText label={label} labelContext={labelContext} />
      </label>
    </div>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> &
  LabelContext & {
    readonly label: string;
    readonly value: string;
    readonly onChange: (value: string) => void;
    readonly options: readonly { readonly value: string; readonly label: string }[];
  };

export function Select({ label, labelContext, value, onChange, options, ...rest }: SelectProps) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        <LabelText label={label} labelContext={labelContext} />
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} {...rest}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
