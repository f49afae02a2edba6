import type { ApiKeyWithSecret } from '../api/types.ts';
import { OneTimeSecret } from '../components/OneTimeSecret.tsx';

/** A new key's secret, shown exactly once. */
export function SecretPanel({ created, onDone }: { readonly created: ApiKeyWithSecret; readonly onDone: () => void }) {
  return (
    <OneTimeSecret
      title={`Secret of “${created.apiKey.name}”`}
      label="API key secret"
      secret={created.secret}
      lost="if it is lost, rotate or revoke the key."
      onDone={onDone}
    >
      <p className="meta">
        Send it as <code>X-Api-Key: {created.apiKey.prefix}…</code>. Prefix {created.apiKey.prefix}, expires{' '}
        {new Date(created.apiKey.expiresAt).toLocaleString()}.
      </p>
    </OneTimeSecret>
  );
}
