import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/apiError.ts';
import { AddMemberDocument, MembersDocument, RemoveMemberDocument, SearchUsersDocument, type OrganizationRole } from '../api/generated/operations.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Select } from '../components/Fields.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { ORGANIZATION_ROLES, roleLabel } from './labels.ts';
import { UserPicker, type PickedUser } from './UserPicker.tsx';

/** Large enough that the owners of almost every organization are on the first page (the last-owner rule needs all). */
const PAGE_SIZE = 100;
const OWNER: OrganizationRole = 'organizationOwner';

type MembersProps = { readonly org: string; readonly isPersonal: boolean; readonly canManage: boolean; readonly isOwner: boolean };
type Member = { readonly user: PickedUser; readonly role: OrganizationRole };

/** Why a member cannot lose the owner role (domain.md §1, auth.md §12), or null when they can. */
function ownerLock(member: Member, org: string, isPersonal: boolean, owners: number | null): string | null {
  if (member.role !== OWNER) return null;
  if (isPersonal && member.user.username.toLowerCase() === org.toLowerCase()) return 'Owns this personal organization: stays its owner.';
  if (owners === 1) return 'The last owner: make someone else owner first.';
  return null;
}

/** Members and their roles; owners and admins add, change and remove them (owners alone handle owners). */
export function MembersSection({ org, isPersonal, canManage, isOwner }: MembersProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const pager = useCursorPager();
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const members = useOperation(
    queryKeys.organization(org),
    MembersDocument,
    { data: { organizationId: org, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.usersOrganization },
  );
  const roleOptions = ORGANIZATION_ROLES.filter((role) => isOwner || role !== OWNER).map((role) => ({ value: role, label: roleLabel(role) }));
  const changed = async (message: string): Promise<void> => {
    // My own role may have changed too (the organizations list shows it).
    await invalidate(queryKeys.organization(org), queryKeys.organizations());
    setNotice(message);
  };
  const changeRole = async (member: Member, role: OrganizationRole): Promise<void> => {
    setNotice(null);
    const done = await action.run(() => api.request(AddMemberDocument, { data: { organizationId: org, userId: member.user.id, role } }));
    if (done) await changed(`${member.user.username} is now ${roleLabel(role)}.`);
  };
  const remove = async (member: Member): Promise<void> => {
    setNotice(null);
    const done = await action.run(() => api.request(RemoveMemberDocument, { data: { organizationId: org, userId: member.user.id } }));
    if (done) await changed(`${member.user.username} was removed from ${org}.`);
  };

  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      {canManage && (
        <p className="meta" id="owner-rule">
          An organization always keeps an owner: the last owner can be neither removed nor given another role until someone else is made owner
          {isPersonal ? ', and the owner of a personal organization stays its owner' : ''}. Only owners grant, change or remove the owner role.
        </p>
      )}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={members} what="members">
        {(connection) => {
          if (connection.totalCount === 0) return <Empty>No members.</Empty>;
          const whole = !connection.pageInfo.hasNextPage && !connection.pageInfo.hasPreviousPage;
          const owners = whole ? connection.edges.filter(({ node }) => node.role === OWNER).length : null;
          return (
            <>
              <GridTable
                items={connection.edges.map(({ node }) => node)}
                rowKey={(node) => node.user.id}
                caption={`Members of ${org}`}
                scrollLabel="Members, scrollable"
                head={
                  <>
                    <th scope="col">User</th>
                    <th scope="col">Role</th>
                    {canManage && <th scope="col">Actions</th>}
                  </>
                }
                row={(node) => {
                  const lock = ownerLock(node, org, isPersonal, owners);
                  const editable = canManage && (isOwner || node.role !== OWNER) && lock === null;
                  return (
                    <>
                      <td>{node.user.username}</td>
                      <td>
                        {editable ? (
                          <Select
                            label="Role"
                            labelContext={`of ${node.user.username}`}
                            className="inline-select"
                            value={node.role}
                            options={roleOptions}
                            disabled={action.busy}
                            onChange={(role) => void changeRole(node, role as OrganizationRole)}
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
                              title={`Remove ${node.user.username} from ${org}?`}
                              confirmLabel="Remove member"
                              danger
                              onConfirm={() => remove(node)}
                            >
                              <p>
                                {node.user.username} loses their role in {org} and every role in its projects, from their next request. Their personal
                                API keys limited to {org} stop working; their other keys lose the access this membership gave.
                              </p>
                            </ConfirmButton>
                          )}
                          {lock !== null && <span className="hint">{lock}</span>}
                        </td>
                      )}
                    </>
                  );
                }}
              />
              <Pager
                pager={pager}
                pageInfo={connection.pageInfo}
                pageSize={PAGE_SIZE}
                shown={connection.edges.length}
                totalCount={connection.totalCount}
                noun="members"
              />
            </>
          );
        }}
      </Async>
      {canManage && <AddMemberForm org={org} roleOptions={roleOptions} onAdded={(message) => changed(message)} />}
    </section>
  );
}

type AddMemberProps = {
  readonly org: string;
  readonly roleOptions: readonly { value: string; label: string }[];
  readonly onAdded: (message: string) => Promise<void>;
};

/** A member from the existing users (picked from the search, or typed in full), with a role. */
function AddMemberForm({ org, roleOptions, onAdded }: AddMemberProps) {
  const api = useApi();
  const action = useAction();
  const [username, setUsername] = useState('');
  const [picked, setPicked] = useState<PickedUser | null>(null);
  const [role, setRole] = useState<OrganizationRole>('reader');
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const wanted = username.trim();
    const done = await action.run(async () => {
      let userId = picked?.username === wanted ? picked.id : null;
      if (userId === null) {
        // Typed in full: the exact username among the prefix matches.
        const found = await api.request(SearchUsersDocument, { data: { search: wanted, first: 20 } });
        userId = found.searchUsers.edges.find(({ node }) => node.username === wanted)?.node.id ?? null;
      }
      if (userId === null) throw new ApiError('USER_NOT_FOUND', '', 404);
      await api.request(AddMemberDocument, { data: { organizationId: org, userId, role } });
      return wanted;
    });
    if (done) {
      setUsername('');
      setPicked(null);
      await onAdded(`${done} was added as ${roleLabel(role)}.`);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="add-member-title">
      <h3 id="add-member-title">Add a member</h3>
      <div className="form-row">
        <UserPicker
          label="User"
          labelContext="to add"
          text={username}
          onText={(text) => {
            setUsername(text);
            if (picked && text !== picked.username) setPicked(null);
          }}
          onPick={(user) => {
            setUsername(user.username);
            setPicked(user);
          }}
          hint="Type the start of a username, then pick the user from the list."
        />
        <Select
          label="Role"
          labelContext="of the new member"
          value={role}
          onChange={(value) => setRole(value as OrganizationRole)}
          options={roleOptions}
        />
      </div>
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" disabled={action.busy || username.trim().length < 2}>
        Add member
      </button>
    </form>
  );
}
