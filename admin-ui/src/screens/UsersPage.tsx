import { useEffect, useState, type FormEvent } from 'react';
import { CreateUserDocument, UsersDocument, type SystemRole } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link } from '../app/router.tsx';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Select, TextField } from '../components/Fields.tsx';
import { OneTimeSecret } from '../components/OneTimeSecret.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { roleLabel } from './labels.ts';
import { PasswordChoice, type PasswordChoiceState } from './PasswordChoice.tsx';
import { passwordProblem } from '../lib/passwordRules.ts';

const PAGE_SIZE = 25;
const SEARCH_DEBOUNCE_MS = 250;
export const SYSTEM_ROLE_OPTIONS: readonly { value: SystemRole; label: string }[] = [
  { value: 'systemUser', label: roleLabel('systemUser') },
  { value: 'systemAdmin', label: roleLabel('systemAdmin') },
];

/** Every user (system administrators only): paged, searched by the start of the username; create a user. */
export function UsersPage(_props: ScreenProps) {
  const { user } = useSession();
  if (user.role !== 'systemAdmin') {
    return (
      <>
        <PageTitle title="Users" />
        <Empty>Only system administrators can see and create users.</Empty>
      </>
    );
  }
  return <UsersList />;
}

function UsersList() {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const pager = useCursorPager(search);
  const users = useOperation(
    queryKeys.users(),
    UsersDocument,
    { data: { first: PAGE_SIZE, after: pager.after ?? null, ...(search ? { search } : {}) } },
    { select: (d) => d.users, keepPrevious: true },
  );
  return (
    <>
      <PageTitle title="Users" />
      <p className="meta">Everyone who can sign in. Open a user to reset their password, change their role, or deactivate them.</p>
      <div className="filter-form" role="search" aria-label="Users">
        <TextField label="Search usernames" type="search" value={typed} onChange={setTyped} hint="Usernames starting with these letters." />
      </div>
      <Async value={users} what="users">
        {(connection) => (
          <PagedTable
            connection={connection}
            empty={search ? `No username starts with “${search}”.` : 'No users.'}
            caption="Users"
            scrollLabel="Users, scrollable"
            head={
              <>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={pathOf('users', node.id)}>{node.username}</Link>
                </td>
                <td>{node.email ?? <span className="hint">none</span>}</td>
                <td>{roleLabel(node.role)}</td>
                <td>
                  {node.isActive ? <span className="status status-active">active</span> : <span className="status status-failed">deactivated</span>}
                </td>
                <td>
                  <Time value={node.createdAt} />
                </td>
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="users"
          />
        )}
      </Async>
      <CreateUserForm />
    </>
  );
}

const EMPTY_PASSWORD: PasswordChoiceState = { mode: 'generate', password: '' };

/** A new user and their personal organization (system-api.md §3.3 createUser); a generated password is shown once. */
function CreateUserForm() {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<SystemRole>('systemUser');
  const [password, setPassword] = useState<PasswordChoiceState>(EMPTY_PASSWORD);
  const [created, setCreated] = useState<{ username: string; password: string | null } | null>(null);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setCreated(null);
    const data = { username: username.trim(), password: password.password, role, ...(email.trim() ? { email: email.trim() } : {}) };
    const done = await action.run(() => api.request(CreateUserDocument, { data }));
    if (done) {
      await invalidate(queryKeys.users());
      setCreated({ username: done.createUser.username, password: password.mode === 'generate' ? password.password : null });
      setUsername('');
      setEmail('');
      setRole('systemUser');
      setPassword(EMPTY_PASSWORD);
    }
  };
  return (
    <>
      {created?.password && (
        <OneTimeSecret
          title={`Initial password of ${created.username}`}
          label={`Initial password of ${created.username}`}
          secret={created.password}
          lost="if it is lost, reset the password on the user's page."
          onDone={() => setCreated(null)}
        >
          <p className="meta">Give it to {created.username} over a safe channel; they can change it under Account.</p>
        </OneTimeSecret>
      )}
      {created && !created.password && <Notice kind="success">User {created.username} was created with the password you set.</Notice>}
      <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-user-title">
        <h2 id="create-user-title">Create a user</h2>
        <p className="meta">The user also gets a personal organization named like them.</p>
        <div className="form-row">
          <TextField
            label="Username"
            labelContext="of the new user"
            value={username}
            onChange={setUsername}
            required
            maxLength={64}
            autoComplete="off"
            hint="Letters, digits, hyphens and underscores, starting with a letter or underscore."
          />
          <TextField
            label="Email"
            labelContext="of the new user"
            type="email"
            value={email}
            onChange={setEmail}
            autoComplete="off"
            hint="Optional, for your records."
          />
          <Select
            label="System role"
            labelContext="of the new user"
            value={role}
            onChange={(value) => setRole(value as SystemRole)}
            options={SYSTEM_ROLE_OPTIONS}
          />
        </div>
        <PasswordChoice state={password} onChange={setPassword} who="the new user" />
        {action.error !== null && <ErrorBox error={action.error} />}
        <button type="submit" className="primary" disabled={action.busy || username.trim() === '' || passwordProblem(password.password) !== null}>
          Create user
        </button>
      </form>
    </>
  );
}
