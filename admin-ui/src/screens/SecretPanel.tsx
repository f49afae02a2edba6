import { useEffect, useRef } from 'react';
import type { ApiKeyWithSecret } from '../api/types.ts';
import { CopyButton } from '../components/CopyButton.tsx';

/**
 * A new key's secret, shown exactly once: it lives only in this component's props (never stored), so it is gone
 * after "Done" or a reload. The panel takes focus so the warning is read first.
 */
export function SecretPanel({ created, onDone }: { readonly created: ApiKeyWithSecret; readonly onDone: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => panel.current?.focus(), [created.secret]);
  return (
    <div className="card secret-panel" ref={panel} tabIndex={-1} role="region" aria-labelledby="secret-title">
      <h2 id="secret-title">Secret of “{created.apiKey.name}”</h2>
      <p className="warning" role="alert">
        Copy this secret now. It is shown only once and cannot be displayed again; if it is lost, rotate or revoke the key.
      </p>
      <div className="secret-row">
        <label htmlFor="new-secret" className="visually-hidden">
          API key secret
        </label>
        <input id="new-secret" className="code secret" readOnly value={created.secret} onFocus={(event) => event.target.select()} />
        <CopyButton text={created.secret} />
      </div>
      <p className="meta">
        Send it as <code>X-Api-Key: {created.apiKey.prefix}…</code>. Prefix {created.apiKey.prefix}, expires {new Date(created.apiKey.expiresAt).toLocaleString()}.
      </p>
      <button type="button" className="primary" onClick={onDone}>
        I have stored the secret
      </button>
    </div>
  );
}
