import { useState, type FormEvent } from 'react';
import { PAGE_INFO } from '../api/fragments.ts';
import type { Connection, Member } from '../api/types.ts';
import { ApiError } from '../api/apiError.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Select, TextField } from '../components/Fields.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, Empty, ErrorBox } from '../components/Status.tsx';
import { ORGANIZATION_ROLES, roleLabel } from './labels.ts';

const PAGE_SIZE = 25;
const MEMBERS = `query Members($data: GetUsersOrganizationInput!) {
  usersOrganization(data: $data) { ${PAGE_INFO} edges { node { role user { id username } } } }
}`;
const SEARCH = `query SearchUsers($data: SearchUsersInput!) { searchUsers(data: $data) { edges { node { id username } } } }`;
const ADD = `mutation AddMember($data: AddUserToOrganizationInput!) { addUserToOrganization(data: $data) }`;
const REMOVE = `mutation RemoveMember($data: RemoveUserFromOrganizationInput!) { removeUserFromOrganization(data: $data) }`;

type MembersProps = { readonly org: string; readonly canManage: boolean; readonly isOwner: boolean };

/** Members and their roles; owners and admins add, change and remove them (owners alone handle owners). */
export function MembersSection({ org, canManage, isOwner }: MembersProps) {
  const api = useApi();
  const pager = useCursorPager();
  const action = useAction();
  const [members, reload] = useLoad(
    () =>
      api
        .graphql<{ usersOrganization: Connection<Member> }>(MEMBERS, { data: { organizationId: org, first: PAGE_SIZE, after: pager.after } })
        .then((d) => d.usersOrganization),
    [org, pager.after],
  );
  const roleOptions = ORGANIZATION_ROLES.filter((role) => isOwner || role !== 'organizationOwner').map((role) => ({ value: role, label: roleLabel(role) }));

  const changeRole = async (userId: string, role: string): Promise<void> => {
    const done = await action.run(() => api.graphql(ADD, { data: { organizationId: org, userId, role } }));
    if (done) reload();
  };
  const remove = async (userId: string): Promise<void> => {
    const done = await action.run(() => api.graphql(REMOVE, { data: { organizationId: org, userId } }));
    if (done) reload();
  };

  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={members} what="members" onRetry={reload}>
        {(connection) =>
          connection.totalCount === 0 ? (
            <Empty>No members.</Empty>
          ) : (
            <>
              <GridTable
                items={connection.edges.map(({ node }) => node)}
                rowKey={(node) => node.user.id}
                caption={`Members of ${org}`}
                head={
                  <>
                    <th scope="col">User</th>
                    <th scope="col">Role</th>
                    {canManage && <th scope="col">Actions</th>}
                  </>
                }
                row={(node) => {
                  const editable = canManage && (isOwner || node.role !== 'organizationOwner');
                  return (
                    <>
                      <td>{node.user.username}</td>
                      <td>
                        {editable ? (
                          <Select
                            label={`Role of ${node.user.username}`}
                            className="inline-select"
                            value={node.role}
                            options={roleOptions}
                            disabled={action.busy}
                            onChange={(role) => void changeRole(node.user.id, role)}
                          />
                        ) : (
                          roleLabel(node.role)
                        )}
                      </td>
                      {canManage && (
                        <td>
                          {editable && (
                            <ConfirmButton
                              label="Remove"
                              labelContext={node.user.username}
                              title={`Remove ${node.user.username}?`}
                              confirmLabel="Remove member"
                              danger
                              onConfirm={() => remove(node.user.id)}
                            >
                              <p>
                                {node.user.username} loses their role in {org} and in its projects.
                              </p>
                            </ConfirmButton>
                          )}
                        </td>
                      )}
                    </>
                  );
                }}
              />
              <Pager pager={pager} pageInfo={connection.pageInfo} pageSize={PAGE_SIZE} shown={connection.edges.length} totalCount={connection.totalCount} noun="members" />
            </>
          )
        }
      </Async>
      {canManage && <AddMemberForm org={org} roleOptions={roleOptions} onAdded={reload} />}
    </section>
  );
}

function AddMemberForm(props: { readonly org: string; readonly roleOptions: { value: string; label: string }[]; readonly onAdded: () => void }) {
  const api = useApi();
  const action = useAction();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState('reader');
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const wanted = username.trim();
    const done = await action.run(async () => {
      const found = await api.graphql<{ searchUsers: Connection<{ id: string; username: string }> }>(SEARCH, { data: { search: wanted, first: 20 } });
      const match = found.searchUsers.edges.find(({ node }) => node.username === wanted);
      if (!match) throw new ApiError('USER_NOT_FOUND', '', 404);
      return api.graphql(ADD, { data: { organizationId: props.org, userId: match.node.id, role } });
    });
    if (done) {
      setUsername('');
      props.onAdded();
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="add-member-title">
      <h3 id="add-member-title">Add a member</h3>
      <div className="form-row">
        <TextField label="Username" value={username} onChange={setUsername} required minLength={2} />
        <Select label="Role" value={role} onChange={setRole} options={props.roleOptions} />
      </div>
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" disabled={action.busy || username.trim().length < 2}>
        Add member
      </button>
    </form>
  );
}
