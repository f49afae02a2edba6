import { useState, type FormEvent } from 'react';
import { CreateOrganizationDocument, MyOrganizationsDocument } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link, useNavigation } from '../app/router.tsx';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { roleLabel } from './labels.ts';

const PAGE_SIZE = 25;

/** The organizations the user belongs to; system administrators create new ones here. */
export function OrganizationsPage(_props: ScreenProps) {
  const { user } = useSession();
  const pager = useCursorPager();
  const organizations = useOperation(
    queryKeys.organizations(),
    MyOrganizationsDocument,
    { data: { first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.myOrganizations },
  );
  return (
    <>
      <PageTitle title="Organizations" />
      <Async value={organizations} what="organizations">
        {(connection) => (
          <PagedTable
            connection={connection}
            empty="You do not belong to any organization yet."
            caption="Your organizations"
            head={
              <>
                <th scope="col">Organization</th>
                <th scope="col">Your role</th>
                <th scope="col">Created</th>
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={pathOf('org', node.id)}>{node.id}</Link>
                  {node.isPersonal && <span className="badge">personal</span>}
                </td>
                <td>{roleLabel(node.myRole)}</td>
                <td>
                  <Time value={node.createdAt} />
                </td>
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="organizations"
          />
        )}
      </Async>
      {user.role === 'systemAdmin' ? (
        <CreateOrganizationForm />
      ) : (
        <p className="meta card">To start a new organization, ask a system administrator: they create it and make you its owner.</p>
      )}
    </>
  );
}

/** createOrganization is systemAdmin-only (system-api.md §3.3): the creator owns the new organization. */
function CreateOrganizationForm() {
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const [id, setId] = useState('');
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const created = await action.run(() => api.request(CreateOrganizationDocument, { data: { organizationId: id.trim() } }));
    if (created) {
      await invalidate(queryKeys.organizations());
      navigation.navigate(pathOf('org', created.createOrganization.id));
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-organization-title">
      <h2 id="create-organization-title">Create an organization</h2>
      <p className="meta">You become its owner; add members on its page.</p>
      <TextField
        label="Organization id"
        value={id}
        onChange={setId}
        required
        maxLength={64}
        hint="Letters, digits, hyphens and underscores, starting with a letter or underscore; unique among organizations and usernames."
      />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || id.trim() === ''}>
        Create organization
      </button>
    </form>
  );
}
