import { PAGE_INFO } from '../api/fragments.ts';
import type { Connection, Organization } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useLoad } from '../app/useLoad.ts';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { roleLabel } from './labels.ts';

const PAGE_SIZE = 25;
const MY_ORGANIZATIONS = `query MyOrganizations($data: GetMyOrganizationsInput) {
  myOrganizations(data: $data) { ${PAGE_INFO} edges { node { id isPersonal createdAt myRole } } }
}`;

/** The organizations the user belongs to. */
export function OrganizationsPage(_props: ScreenProps) {
  const api = useApi();
  const pager = useCursorPager();
  const [organizations, reload] = useLoad(
    () =>
      api
        .graphql<{ myOrganizations: Connection<Organization> }>(MY_ORGANIZATIONS, { data: { first: PAGE_SIZE, after: pager.after } })
        .then((d) => d.myOrganizations),
    [pager.after],
  );
  return (
    <>
      <PageTitle title="Organizations" />
      <Async value={organizations} what="organizations" onRetry={reload}>
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
    </>
  );
}
