import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/apiError.ts';
import { errorMessage } from '../api/errorMessages.ts';
import { UpdatePasswordDocument } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { ErrorBox } from '../components/Status.tsx';
import { passwordProblem } from '../lib/passwordRules.ts';
import { roleLabel } from './labels.ts';
import { SessionsEnd } from './sessionEffects.tsx';

/** The signed-in user: own password change (auth.md §12) and log out everywhere (auth.md §7.3). */
export function AccountPage(_props: ScreenProps) {
  const { user } = useSession();
  return (
    <>
      <PageTitle title="Account" />
      <p className="meta">
        Signed in as <strong>{user.username}</strong> · {roleLabel(user.role)} · personal organization{' '}
        <Link to={pathOf('org', user.organizationId)}>{user.organizationId}</Link>
      </p>
      <ChangePasswordForm />
      <LogOutEverywhere />
    </>
  );
}

function ChangePasswordForm() {
  const api = useApi();
  const { sessionEnded } = useSession();
  const action = useAction();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const problem = passwordProblem(newPassword);
  const mismatch = repeat !== newPassword ? 'The two new passwords differ.' : null;
  // The server's answers at their fields: a wrong current password, then its password rule.
  const wrongOld = isApiError(action.error, 'BAD_USER_INPUT') ? 'This is not your current password.' : null;
  const invalidNew = isApiError(action.error, 'INVALID_PASSWORD') ? errorMessage(action.error) : null;
  const other = action.error !== null && wrongOld === null && invalidNew === null;
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setTried(true);
    if (problem !== null || mismatch !== null || oldPassword === '') return;
    const done = await action.run(() => api.request(UpdatePasswordDocument, { data: { oldPassword, newPassword } }));
    // The server cleared this browser's cookies with every other session: sign in again with the new password.
    if (done) sessionEnded('Your password was changed and all your sessions have ended. Sign in with the new password.');
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="password-title" noValidate>
      <h2 id="password-title">Change your password</h2>
      <p className="meta">When the new password is saved:</p>
      <SessionsEnd who="you" />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={oldPassword}
        onChange={(value) => {
          setOldPassword(value);
          action.clear();
        }}
        required
        error={wrongOld ?? (tried && oldPassword === '' ? 'Enter your current password.' : null)}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        value={newPassword}
        onChange={(value) => {
          setNewPassword(value);
          action.clear();
        }}
        required
        minLength={8}
        maxLength={256}
        hint="8 to 256 characters; any characters."
        error={invalidNew ?? (tried ? problem : null)}
      />
      <TextField
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        value={repeat}
        onChange={setRepeat}
        required
        error={tried ? mismatch : null}
      />
      {other && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy}>
        Change password
      </button>
    </form>
  );
}

function LogOutEverywhere() {
  const api = useApi();
  const { sessionEnded } = useSession();
  const action = useAction();
  const logOutAll = async (): Promise<void> => {
    if (await action.run(() => api.logoutAll().then(() => true))) sessionEnded('You are signed out everywhere.');
  };
  return (
    <section className="card" aria-labelledby="logout-all-title">
      <h2 id="logout-all-title">Log out everywhere</h2>
      <p className="meta">For a lost device or a shared computer:</p>
      <SessionsEnd who="you" />
      {action.error !== null && <ErrorBox error={action.error} />}
      <ConfirmButton
        label="Log out everywhere…"
        title="Log out everywhere?"
        confirmLabel="Log out everywhere"
        danger
        disabled={action.busy}
        onConfirm={logOutAll}
      >
        <SessionsEnd who="you" />
      </ConfirmButton>
    </section>
  );
}
