import { useState, type FormEvent } from 'react';
import {
  DeactivateUserDocument,
  ReactivateUserDocument,
  ResetPasswordDocument,
  SetUserRoleDocument,
  UserDocument,
  type SystemRole,
} from '../api/generated/operations.ts';
import type { User } from '../api/types.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link } from '../app/router.tsx';
import { useApi, useSession } from '../app/session.tsx';
import { useAction, type Action } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Select } from '../components/Fields.tsx';
import { OneTimeSecret } from '../components/OneTimeSecret.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { roleLabel } from './labels.ts';
import { PasswordChoice, type PasswordChoiceState } from './PasswordChoice.tsx';
import { passwordProblem } from '../lib/passwordRules.ts';
import { DeactivationEffects, SessionsEnd } from './sessionEffects.tsx';
import { SYSTEM_ROLE_OPTIONS } from './UsersPage.tsx';

/** One user (system administrators): reset the password, change the system role, deactivate or reactivate. */
export function UserPage({ params }: ScreenProps) {
  const userId = params.user as string;
  const { user: me } = useSession();
  const user = useOperation(queryKeys.users(), UserDocument, { data: { userId } }, { enabled: me.role === 'systemAdmin', select: (d) => d.user });
  if (me.role !== 'systemAdmin') {
    return (
      <>
        <PageTitle title="User" />
        <Empty>Only system administrators can manage users.</Empty>
      </>
    );
  }
  return (
    <>
      <PageTitle title={user.status === 'success' ? `User ${user.data.username}` : 'User'}>
        <Link to="/users" className="button-link">
          All users
        </Link>
      </PageTitle>
      <Async value={user} what="the user">
        {(u) => <UserDetails user={u} self={u.id === me.id} />}
      </Async>
    </>
  );
}

function UserDetails({ user, self }: { readonly user: User; readonly self: boolean }) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>, message: string): Promise<void> => {
    setNotice(null);
    if ((await action.run(work)) !== undefined) {
      // The list, this page and member pickers show users.
      await invalidate(queryKeys.users());
      setNotice(message);
    }
  };
  return (
    <>
      <p className="meta">
        {user.email ?? 'No email'} · {roleLabel(user.role)} ·{' '}
        {user.isActive ? <span className="status status-active">active</span> : <span className="status status-failed">deactivated</span>} · created{' '}
        <Time value={user.createdAt} /> · personal organization <Link to={pathOf('org', user.organizationId)}>{user.organizationId}</Link>
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <RoleSection user={user} self={self} action={action} run={run} />
      <ResetPasswordSection user={user} />
      <section className="card" aria-labelledby="activation-title">
        <h2 id="activation-title">{user.isActive ? 'Deactivate' : 'Reactivate'}</h2>
        {self ? (
          <p className="meta">You cannot deactivate yourself.</p>
        ) : user.isActive ? (
          <>
            <DeactivationEffects username={user.username} />
            <ConfirmButton
              label={`Deactivate ${user.username}…`}
              title={`Deactivate ${user.username}?`}
              confirmLabel="Deactivate"
              danger
              disabled={action.busy}
              onConfirm={() =>
                run(
                  () => api.request(DeactivateUserDocument, { data: { userId: user.id } }),
                  `${user.username} was deactivated; their sessions have ended.`,
                )
              }
            >
              <DeactivationEffects username={user.username} />
            </ConfirmButton>
          </>
        ) : (
          <>
            <p>
              {user.username} can sign in again; sessions that ended stay ended, unexpired personal API keys that were not revoked work again, and
              connected apps need their approval again.
            </p>
            <ConfirmButton
              label={`Reactivate ${user.username}…`}
              title={`Reactivate ${user.username}?`}
              confirmLabel="Reactivate"
              disabled={action.busy}
              onConfirm={() => run(() => api.request(ReactivateUserDocument, { data: { userId: user.id } }), `${user.username} was reactivated.`)}
            >
              <p>{user.username} can sign in again with their password. Their personal API keys work again.</p>
            </ConfirmButton>
          </>
        )}
      </section>
    </>
  );
}

type RoleSectionProps = {
  readonly user: User;
  readonly self: boolean;
  readonly action: Action;
  readonly run: (work: () => Promise<unknown>, message: string) => Promise<void>;
};

/** setUserRole (admin-ui/README.md): not one's own, so the last administrator cannot lock everyone out. */
function RoleSection({ user, self, action, run }: RoleSectionProps) {
  const api = useApi();
  const [role, setRole] = useState<SystemRole>(user.role);
  const promote = role === 'systemAdmin';
  return (
    <section className="card form" aria-labelledby="role-title">
      <h2 id="role-title">System role</h2>
      {self ? (
        <p className="meta">You are a system administrator. Another administrator can change your role; you cannot change your own.</p>
      ) : (
        <>
          <Select
            label="System role"
            labelContext={`of ${user.username}`}
            value={role}
            onChange={(value) => setRole(value as SystemRole)}
            options={SYSTEM_ROLE_OPTIONS}
          />
          <ConfirmButton
            label="Change role…"
            title={promote ? `Make ${user.username} a system administrator?` : `Make ${user.username} a user?`}
            confirmLabel="Change role"
            danger={promote}
            disabled={action.busy || role === user.role}
            onConfirm={() => run(() => api.request(SetUserRoleDocument, { userId: user.id, role }), `${user.username} is now ${roleLabel(role)}.`)}
          >
            <p>
              {promote
                ? `${user.username} will manage every user, organization and project, and see the operations screen.`
                : `${user.username} keeps their memberships but loses what only system administrators may do.`}{' '}
              It applies from their next request; they do not need to sign in again.
            </p>
          </ConfirmButton>
        </>
      )}
    </section>
  );
}

/** resetPassword: a new password (generated and shown once, or set), which ends every session of the user. */
function ResetPasswordSection({ user }: { readonly user: User }) {
  const api = useApi();
  const action = useAction();
  const [password, setPassword] = useState<PasswordChoiceState>({ mode: 'generate', password: '' });
  const [shown, setShown] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const reset = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    setDone(false);
    const ok = await action.run(() => api.request(ResetPasswordDocument, { data: { userId: user.id, newPassword: password.password } }));
    if (ok) {
      setShown(password.mode === 'generate' ? password.password : null);
      setDone(true);
      setPassword({ mode: 'generate', password: '' });
    }
  };
  return (
    <section className="card form" aria-labelledby="reset-title">
      <h2 id="reset-title">Reset the password</h2>
      {shown && (
        <OneTimeSecret
          title={`New password of ${user.username}`}
          label={`New password of ${user.username}`}
          secret={shown}
          lost="if it is lost, reset the password again."
          onDone={() => setShown(null)}
        />
      )}
      {done && !shown && <Notice kind="success">The password of {user.username} was reset.</Notice>}
      <PasswordChoice state={password} onChange={setPassword} who={user.username} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <ConfirmButton
        label="Reset password…"
        title={`Reset the password of ${user.username}?`}
        confirmLabel="Reset password"
        danger
        disabled={action.busy || passwordProblem(password.password) !== null}
        onConfirm={() => reset()}
      >
        <SessionsEnd who={user.username} />
      </ConfirmButton>
    </section>
  );
}
