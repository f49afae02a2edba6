import { useState } from 'react';

export type ComboboxOption = { readonly value: string; readonly label: string; readonly hint?: string };

type ComboboxProps = {
  /** The input's id (its label's `htmlFor`). */
  readonly id: string;
  /** The typed text. */
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly options: readonly ComboboxOption[];
  readonly onPick: (option: ComboboxOption) => void;
  /** The list's accessible name ("Rows of authors", "Users"). */
  readonly listLabel: string;
  /** The list's only line when it has no options (no match, failed, type more); null keeps the list closed. */
  readonly note: string | null;
  /** Told when the list opens or closes (the caller searches only while it is open). */
  readonly onOpenChange?: (open: boolean) => void;
  readonly describedBy?: string | undefined;
  readonly invalid?: boolean;
  readonly readOnly?: boolean;
  readonly required?: boolean;
};

/**
 * A text input with a list of suggestions (the WAI-ARIA combobox pattern): typing filters, arrows move through the
 * options, Enter or a click picks one, Escape closes the list. The typed text stays the value until an option is
 * picked, so a value can also be typed in full.
 */
export function Combobox(props: ComboboxProps) {
  const { id, options } = props;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const show = (next: boolean): void => {
    setOpen(next);
    props.onOpenChange?.(next);
  };
  const pick = (option: ComboboxOption): void => {
    props.onPick(option);
    show(false);
    setActive(-1);
  };
  const listed = open && (options.length > 0 || props.note !== null);
  return (
    <div className="combobox">
      <input
        id={id}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={listed}
        aria-controls={`${id}-list`}
        aria-activedescendant={listed && active >= 0 ? `${id}-option-${active}` : undefined}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        readOnly={props.readOnly}
        required={props.required}
        value={props.text}
        onChange={(event) => {
          props.onText(event.target.value);
          show(true);
          setActive(-1);
        }}
        onFocus={() => !props.readOnly && show(true)}
        onBlur={() => show(false)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            if (!open) show(true);
            const step = event.key === 'ArrowDown' ? 1 : -1;
            setActive((i) => (options.length === 0 ? -1 : (i + step + options.length) % options.length));
          } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
            event.preventDefault();
            pick(options[active]);
          } else if (event.key === 'Escape') {
            show(false);
          }
        }}
      />
      <ul id={`${id}-list`} role="listbox" aria-label={props.listLabel} hidden={!listed}>
        {options.length === 0 && props.note !== null && <li className="hint">{props.note}</li>}
        {options.map((option, index) => (
          <li
            key={option.value}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            onMouseDown={(event) => {
              event.preventDefault();
              pick(option);
            }}
          >
            <span className="option-id">{option.label}</span>
            {option.hint && <span className="hint"> {option.hint}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
