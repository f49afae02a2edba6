import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CopyButton } from './CopyButton.tsx';

type OneTimeSecretProps = {
  readonly title: string;
  /** Accessible name of the secret field. */
  readonly label: string;
  readonly secret: string;
  /** The warning sentence after "Copy this secret now. It is shown only once and cannot be displayed again;". */
  readonly lost: string;
  readonly onDone: () => void;
  readonly children?: ReactNode;
};

/**
 * A new secret, shown exactly once: it lives only in this component's props (never stored), so it is gone after
 * "Done" or a reload. The panel takes focus so the warning is read first.
 */
export function OneTimeSecret({ title, label, secret, lost, onDone, children }: OneTimeSecretProps) {
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => panel.current?.focus(), [secret]);
  return (
    <div className="card secret-panel" ref={panel} tabIndex={-1} role="region" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="warning" role="alert">
        Copy this secret now. It is shown only once and cannot be displayed again; {lost}
      </p>
      <div className="secret-row">
        <label htmlFor={`${id}-secret`} className="visually-hidden">
          {label}
        </label>
        <input id={`${id}-secret`} className="code secret" readOnly value={secret} onFocus={(event) => event.target.select()} />
        <CopyButton text={secret} />
      </div>
      {children}
      <button type="button" className="primary" onClick={onDone}>
        I have stored the secret
      </button>
    </div>
  );
}
