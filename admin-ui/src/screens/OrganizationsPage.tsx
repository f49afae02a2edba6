import { PAGE_INFO } from '../api/fragments.ts';
import type { Connection, Organization } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useLoad } from '../app/useLoad.ts';
import { PageTitle } from '../components/PageTitle.tsx';
import { Pager, useCursorPager } from '../components/Pager.tsx';
import { Async, Empty } from '../components/Status.tsx';
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
        {(connection) =>
          connection.totalCount === 0 ? (
            <Empty>You do not belong to any organization yet.</Empty>
          ) : (
            <>
              <table className="grid">
                <caption className="visually-hidden">Your organizations</caption>
                <thead>
                  <tr>
                    <th scope="col">Organization</th>
                    <th scope="col">Your role</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {connection.edges.map(({ node }) => (
                    <tr key={node.id}>
                      <td>
                        <Link to={pathOf('org', node.id)}>{node.id}</Link>
                        {node.isPersonal && <span className="badge">personal</span>}
                      </td>
                      <td>{roleLabel(node.myRole)}</td>
                      <td>
                        <Time value={node.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <Pager
                pager={pager}
                pageInfo={connection.pageInfo}
                pageSize={PAGE_SIZE}
                shown={connection.edges.length}
                totalCount={connection.totalCount}
                noun="organizations"
              />
            </>
          )
        }
      </Async>
    </>
  );
}
