import { useState } from 'react';
import { EndpointsDocument, UpdateProjectDocument } from '../api/generated/operations.ts';
import type { Connection, Endpoint } from '../api/types.ts';
import { projectContentKeys, useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';

/** Endpoints named in the dialogs; more are counted, not listed. */
const ENDPOINTS_LISTED = 100;

type ProjectVisibilityProps = { readonly org: string; readonly project: string; readonly isPublic: boolean };
type Listed = Pick<Endpoint, 'id' | 'type' | 'mode' | 'branchName' | 'path' | 'openApiPath' | 'docsPath'>;

/**
 * Who may read the project (auth.md §9), shown as a status, and the one action that changes it. Both directions
 * ask first and say what changes for whom: making data public is the change a user cannot take back.
 */
export function ProjectVisibility({ org, project, isPublic }: ProjectVisibilityProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [changed, setChanged] = useState<boolean | null>(null);
  const endpoints = useOperation(
    queryKeys.project(org, project),
    EndpointsDocument,
    { data: { organizationId: org, projectName: project, first: ENDPOINTS_LISTED } },
    { select: (d) => d.projectEndpoints },
  );
  const setVisibility = async (next: boolean): Promise<void> => {
    const done = await action.run(() => api.request(UpdateProjectDocument, { data: { organizationId: org, projectName: project, isPublic: next } }));
    if (done) {
      await invalidate(...projectContentKeys(org, project), queryKeys.organization(org));
      setChanged(next);
    }
  };
  const endpointList = (
    <Async value={endpoints} what="the project's endpoints">
      {(connection) => <EndpointList connection={connection} project={project} />}
    </Async>
  );
  return (
    <section className="card visibility" aria-labelledby="visibility-title">
      <h2 id="visibility-title">Visibility</h2>
      <p className="visibility-status">
        <span className={isPublic ? 'badge badge-warn' : 'badge'}>{isPublic ? 'Public' : 'Private'}</span>{' '}
        {isPublic
          ? 'Anyone may read this project, without signing in. Writing needs a role on it.'
          : 'Only members of the organization and of this project (and system administrators) may read it.'}
      </p>
      {changed !== null && (
        <Notice kind="success">
          Project {project} is now {changed ? 'public' : 'private'}.
        </Notice>
      )}
      {action.error !== null && <ErrorBox error={action.error} />}
      {isPublic ? (
        <ConfirmButton
          label="Make private…"
          title={`Make project ${project} private?`}
          confirmLabel="Make private"
          disabled={action.busy}
          onConfirm={() => setVisibility(false)}
        >
          <p>
            Only members of {org} and of {project} (and system administrators) will be able to read it. From the next request, anonymous readers get
            401 and signed-in users without a role get 403 from:
          </p>
          <ul>
            <li>
              these endpoints of {project}, with their GraphiQL, openapi.json and docs: {endpointList}
            </li>
            <li>
              the system API (GraphQL <code>/graphql</code>, REST <code>/api/…</code>) and MCP reads of its branches, revisions, tables, rows and
              endpoints.
            </li>
          </ul>
        </ConfirmButton>
      ) : (
        <ConfirmButton
          label="Make public…"
          title={`Make project ${project} public?`}
          confirmLabel="Make public"
          danger
          disabled={action.busy}
          onConfirm={() => setVisibility(true)}
        >
          <p>
            <strong>Anyone will be able to read all data of {project} without signing in</strong>: anonymous visitors and every signed-in user without
            a role on it. From the next request they can read:
          </p>
          <ul>
            <li>
              every branch, revision, table and row of {project}, including each branch&apos;s uncommitted draft, and its list of endpoints, through
              the system API (GraphQL <code>/graphql</code>, REST <code>/api/…</code>) and MCP read tools;
            </li>
            <li>
              every endpoint of {project}, serving HEAD, the draft or a pinned revision: GraphQL queries and GraphiQL, REST reads and{' '}
              <code>rows/query</code>, openapi.json and the docs. {endpointList}
            </li>
          </ul>
          <p>Writing still needs a role on the project. Members and API keys stay private; API keys stay bound to their scope.</p>
        </ConfirmButton>
      )}
    </section>
  );
}

const TYPE_LABELS = { GRAPHQL: 'GraphQL', REST_API: 'REST' } as const;

/** The project's endpoints by path, as the visibility dialogs name them. */
function EndpointList({ connection, project }: { readonly connection: Connection<Listed>; readonly project: string }) {
  if (connection.totalCount === 0) return <>{project} has no endpoints yet; the ones created later answer the same way.</>;
  const more = connection.totalCount - connection.edges.length;
  return (
    <ul className="endpoint-paths" aria-label={`Endpoints of ${project}`}>
      {connection.edges.map(({ node }) => (
        <li key={node.id}>
          <code className="path">{node.path}</code>{' '}
          <span className="hint">
            {TYPE_LABELS[node.type]}, {node.branchName} {node.mode}
          </span>
        </li>
      ))}
      {more > 0 && <li>and {more} more (see Endpoints)</li>}
    </ul>
  );
}
