import { DeleteEndpointDocument, EndpointsDocument } from '../api/generated/operations.ts';
import type { Endpoint } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { CreateEndpointForm } from './CreateEndpointForm.tsx';

const PAGE_SIZE = 25;

const TYPE_LABELS = { GRAPHQL: 'GraphQL', REST_API: 'REST' } as const;

/** The generated APIs of a project: list with links to GraphiQL / OpenAPI / Swagger UI, create, delete. */
export function EndpointsPage({ params }: ScreenProps) {
  const org = params.org as string;
  const project = params.project as string;
  const api = useApi();
  const invalidate = useInvalidate();
  const pager = useCursorPager();
  const action = useAction();
  const endpoints = useOperation(
    queryKeys.project(org, project),
    EndpointsDocument,
    { data: { organizationId: org, projectName: project, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.projectEndpoints },
  );
  const remove = async (id: string): Promise<void> => {
    const done = await action.run(() => api.request(DeleteEndpointDocument, { data: { endpointId: id } }));
    if (done) await invalidate(...projectContentKeys(org, project));
  };
  return (
    <>
      <PageTitle title={`Endpoints of ${project}`} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={endpoints} what="endpoints">
        {(connection) => (
          <PagedTable
            connection={connection}
            empty="No endpoints yet: create one to publish a GraphQL or REST API for a branch."
            caption="Endpoints"
            scrollLabel="Endpoints, scrollable"
            head={
              <>
                <th scope="col">Type</th>
                <th scope="col">Branch</th>
                <th scope="col">Mode</th>
                <th scope="col">Open</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </>
            }
            row={(node) => (
              <>
                <td>{TYPE_LABELS[node.type]}</td>
                <td>{node.branchName}</td>
                <td>{node.mode === 'pinned' ? `pinned ${node.revisionId.slice(0, 8)}` : node.mode}</td>
                <td>
                  <div className="links">
                    <EndpointLinks endpoint={node} />
                  </div>
                </td>
                <td>
                  <Time value={node.createdAt} />
                </td>
                <td>
                  <ConfirmButton
                    label="Delete"
                    labelContext={`endpoint ${node.path}`}
                    title="Delete this endpoint?"
                    confirmLabel="Delete endpoint"
                    danger
                    onConfirm={() => remove(node.id)}
                  >
                    <p>
                      <code>{node.path}</code> stops answering. The data itself is not changed.
                    </p>
                  </ConfirmButton>
                </td>
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="endpoints"
          />
        )}
      </Async>
      <CreateEndpointForm org={org} project={project} />
    </>
  );
}

/** Links that open the generated API tools in a new tab (same origin). */
function EndpointLinks({ endpoint }: { readonly endpoint: Endpoint }) {
  const external = { target: '_blank', rel: 'noopener noreferrer' } as const;
  if (endpoint.type === 'GRAPHQL') {
    return (
      <>
        <a href={endpoint.path} {...external}>
          GraphiQL <span className="visually-hidden">(opens in a new tab)</span>
        </a>
        <code className="path">{endpoint.path}</code>
      </>
    );
  }
  return (
    <>
      {endpoint.docsPath && (
        <a href={endpoint.docsPath} {...external}>
          Swagger UI <span className="visually-hidden">(opens in a new tab)</span>
        </a>
      )}
      {endpoint.openApiPath && (
        <a href={endpoint.openApiPath} {...external}>
          openapi.json <span className="visually-hidden">(opens in a new tab)</span>
        </a>
      )}
      <code className="path">{endpoint.path}</code>
    </>
  );
}
