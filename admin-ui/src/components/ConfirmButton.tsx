import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { LabelText } from './Fields.tsx';

type ConfirmButtonProps = {
  /** Text of the button that opens the dialog. */
  readonly label: string;
  /** Words after the label, read by screen readers only, that tell this button from its neighbours (table rows). */
  readonly labelContext?: string;
  readonly title: string;
  readonly children: ReactNode;
  /** Text of the confirming button inside the dialog. */
  readonly confirmLabel: string;
  readonly onConfirm: () => Promise<void> | void;
  readonly danger?: boolean;
  readonly disabled?: boolean;
  readonly className?: string;
};

/**
 * A button that asks before doing something irreversible. Uses the native modal `<dialog>` (focus trap, Escape to
 * cancel); the dialog opens with the safe choice focused.
 */
export function ConfirmButton(props: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  const confirm = async (): Promise<void> => {
    setBusy(true);
    try {
      await props.onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className={[props.danger ? 'danger' : '', props.className ?? ''].join(' ').trim() || undefined}
        disabled={props.disabled}
        onClick={() => setOpen(true)}
      >
        <LabelText label={props.label} labelContext={props.labelContext} />
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} onClose={() => setOpen(false)}>
        <h2 id={titleId}>{props.title}</h2>
        <div className="dialog-body">{props.children}</div>
        <div className="actions">
          <button type="button" ref={cancel} onClick={() => setOpen(false)} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={() => void confirm()} disabled={busy}>
            {props.confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
