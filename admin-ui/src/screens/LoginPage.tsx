import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/apiError.ts';
import type { ApiClient } from '../api/client.ts';
import { errorMessage } from '../api/errorMessages.ts';
import { TextField } from '../components/Fields.tsx';
import { Notice } from '../components/Status.tsx';
import { useDocumentTitle } from '../components/PageTitle.tsx';
import { LoginDocument } from '../api/generated/operations.ts';

type LoginPageProps = {
  readonly api: ApiClient;
  readonly notice?: string;
  /** Resolves false when the server accepted the password but no cookie session exists. */
  readonly onSignedIn: () => Promise<boolean>;
};

/** Username and password → the `login` mutation; the server answers with the session cookies (auth.md §3, §4). */
export function LoginPage({ api, notice, onSignedIn }: LoginPageProps) {
  useDocumentTitle('Sign in');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Only the cookies matter: the token in the answer is deliberately not selected nor kept.
      await api.request(LoginDocument, { data: { username, password } }, { session: false });
      if (!(await onSignedIn())) setError('The password was accepted, but the server did not start a browser session (no session cookie).');
    } catch (err) {
      setError(isApiError(err, 'INVALID_CREDENTIALS') ? 'Wrong username or password.' : errorMessage(err));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login" id="main">
      <form className="card login-card" onSubmit={(event) => void submit(event)} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Sign in to Strata</h1>
        {notice && <Notice kind="success">{notice}</Notice>}
        <TextField label="Username" name="username" autoComplete="username" value={username} onChange={setUsername} required autoFocus />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          required
        />
        {error && <Notice kind="error">{error}</Notice>}
        <button type="submit" className="primary" disabled={busy || username === '' || password === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
