import { useState } from 'react';
import { BRANCH_FIELDS, PAGE_INFO } from '../api/fragments.ts';
import type { Branch, Connection, Project } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';
import { Link, useNavigation } from '../app/router.tsx';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { CreateBranchForm } from './CreateBranchForm.tsx';
import { ProjectVisibility } from './ProjectVisibility.tsx';

const PAGE_SIZE = 20;
const PROJECT = `query Project($data: GetProjectInput!) { project(data: $data) { id organizationId name isPublic createdAt } }`;
const BRANCHES = `query Branches($data: GetBranchesInput!) { branches(data: $data) { ${PAGE_INFO} edges { node { ${BRANCH_FIELDS} } } } }`;
const DELETE_PROJECT = `mutation DeleteProject($data: DeleteProjectInput!) { deleteProject(data: $data) }`;
const DELETE_BRANCH = `mutation DeleteBranch($data: DeleteBranchInput!) { deleteBranch(data: $data) }`;

/** A project: branches with HEAD, draft and changes; branch creation; visibility; deletion. */
export function ProjectPage({ params }: ScreenProps) {
  const org = params.org as string;
  const projectName = params.project as string;
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const [project, reloadProject] = useLoad(
    () => api.graphql<{ project: Project }>(PROJECT, { data: { organizationId: org, projectName } }).then((d) => d.project),
    [org, projectName],
  );
  const [branchesVersion, setBranchesVersion] = useState(0);

  const deleteProject = async (): Promise<void> => {
    const done = await action.run(() => api.graphql(DELETE_PROJECT, { data: { organizationId: org, projectName } }));
    if (done) navigation.navigate(pathOf('org', org));
  };

  return (
    <>
      <PageTitle title={`Project ${projectName}`}>
        <Link to={pathOf('org', org, 'project', projectName, 'endpoints')} className="button-link">
          Endpoints
        </Link>
        <Link to={pathOf('org', org, 'project', projectName, 'compare')} className="button-link">
          Compare revisions
        </Link>
      </PageTitle>
      <Async value={project} what="the project" onRetry={reloadProject}>
        {(p) => (
          <>
            <p className="meta">
              In <Link to={pathOf('org', org)}>{org}</Link> · created <Time value={p.createdAt} />
            </p>
            <ProjectVisibility org={org} project={projectName} isPublic={p.isPublic} onChanged={reloadProject} />
            <div className="card toolbar">
              <ConfirmButton
                label="Delete project"
                title={`Delete project ${projectName}?`}
                confirmLabel="Delete project"
                danger
                disabled={action.busy}
                onConfirm={deleteProject}
              >
                <p>All branches, revisions, tables, rows and endpoints of {projectName} stop being available.</p>
              </ConfirmButton>
            </div>
            {action.error !== null && <ErrorBox error={action.error} />}
            <BranchesSection org={org} project={projectName} version={branchesVersion} />
            <CreateBranchForm
              org={org}
              project={projectName}
              onCreated={(branch) => {
                setBranchesVersion((v) => v + 1);
                navigation.navigate(pathOf('org', org, 'project', projectName, 'branch', branch, 'draft'));
              }}
            />
          </>
        )}
      </Async>
    </>
  );
}

function BranchesSection({ org, project, version }: { readonly org: string; readonly project: string; readonly version: number }) {
  const api = useApi();
  const pager = useCursorPager();
  const action = useAction();
  const [branches, reload] = useLoad(
    () =>
      api
        .graphql<{ branches: Connection<Branch> }>(BRANCHES, { data: { organizationId: org, projectName: project, first: PAGE_SIZE, after: pager.after } })
        .then((d) => d.branches),
    [org, project, pager.after],
    version,
  );
  const remove = async (branchName: string): Promise<void> => {
    const done = await action.run(() => api.graphql(DELETE_BRANCH, { data: { organizationId: org, projectName: project, branchName } }));
    if (done) reload();
  };
  const base = (branch: string, rev: string): string => pathOf('org', org, 'project', project, 'branch', branch, rev);
  return (
    <section aria-labelledby="branches-title">
      <h2 id="branches-title">Branches</h2>
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={branches} what="branches" onRetry={reload}>
        {(connection) => (
          <PagedTable
            connection={connection}
            empty="No branches."
            caption={<>Branches of {project}</>}
            head={
              <>
                <th scope="col">Branch</th>
                <th scope="col">HEAD</th>
                <th scope="col">Draft</th>
                <th scope="col">Actions</th>
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={base(node.name, 'draft')}>{node.name}</Link>
                  {node.isRoot && <span className="badge">root</span>}
                  {node.parent && <span className="hint"> from {node.parent.branchName}</span>}
                </td>
                <td>
                  <Link to={base(node.name, 'head')}>#{node.head.sequence}</Link> {node.head.comment && <span className="hint">{node.head.comment}</span>}{' '}
                  <Time value={node.head.committedAt} empty="" />
                </td>
                <td>
                  <Link to={base(node.name, 'draft')}>draft</Link>{' '}
                  {node.draft.hasChanges ? <span className="badge badge-warn">has changes</span> : <span className="hint">no changes</span>}
                </td>
                <td>
                  {!node.isRoot && (
                    <ConfirmButton label="Delete" labelContext={`branch ${node.name}`} title={`Delete branch ${node.name}?`} confirmLabel="Delete branch" danger onConfirm={() => remove(node.name)}>
                      <p>The branch, its draft and its revisions are removed.</p>
                    </ConfirmButton>
                  )}
                </td>
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="branches"
          />
        )}
      </Async>
    </section>
  );
}
