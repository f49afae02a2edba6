import { BranchesDocument, DeleteBranchDocument, DeleteProjectDocument, ProjectDocument } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { projectContentKeys, useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link, useNavigation } from '../app/router.tsx';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { CreateBranchForm } from './CreateBranchForm.tsx';
import { ProjectVisibility } from './ProjectVisibility.tsx';

const PAGE_SIZE = 20;

/** A project: branches with HEAD, draft and changes; branch creation; visibility; deletion. */
export function ProjectPage({ params }: ScreenProps) {
  const org = params.org as string;
  const projectName = params.project as string;
  const api = useApi();
  const navigation = useNavigation();
  const invalidate = useInvalidate();
  const action = useAction();
  const project = useOperation(
    queryKeys.project(org, projectName),
    ProjectDocument,
    { data: { organizationId: org, projectName } },
    { select: (d) => d.project },
  );

  const deleteProject = async (): Promise<void> => {
    const done = await action.run(() => api.request(DeleteProjectDocument, { data: { organizationId: org, projectName } }));
    if (done) {
      await invalidate(queryKeys.organization(org));
      navigation.navigate(pathOf('org', org));
    }
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
      <Async value={project} what="the project">
        {(p) => (
          <>
            <p className="meta">
              In <Link to={pathOf('org', org)}>{org}</Link> · created <Time value={p.createdAt} />
            </p>
            <ProjectVisibility org={org} project={projectName} isPublic={p.isPublic} />
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
            <BranchesSection org={org} project={projectName} />
            <CreateBranchForm
              org={org}
              project={projectName}
              onCreated={(branch) => navigation.navigate(pathOf('org', org, 'project', projectName, 'branch', branch, 'draft'))}
            />
          </>
        )}
      </Async>
    </>
  );
}

function BranchesSection({ org, project }: { readonly org: string; readonly project: string }) {
  const api = useApi();
  const invalidate = useInvalidate();
  const pager = useCursorPager();
  const action = useAction();
  const branches = useOperation(
    queryKeys.project(org, project),
    BranchesDocument,
    { data: { organizationId: org, projectName: project, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.branches },
  );
  const remove = async (branchName: string): Promise<void> => {
    const done = await action.run(() => api.request(DeleteBranchDocument, { data: { organizationId: org, projectName: project, branchName } }));
    if (done) await invalidate(...projectContentKeys(org, project));
  };
  const base = (branch: string, rev: string): string => pathOf('org', org, 'project', project, 'branch', branch, rev);
  return (
    <section aria-labelledby="branches-title">
      <h2 id="branches-title">Branches</h2>
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={branches} what="branches">
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
                  <Link to={base(node.name, 'head')}>#{node.head.sequence}</Link>{' '}
                  {node.head.comment && <span className="hint">{node.head.comment}</span>} <Time value={node.head.committedAt} empty="" />
                </td>
                <td>
                  <Link to={base(node.name, 'draft')}>draft</Link>{' '}
                  {node.draft.hasChanges ? <span className="badge badge-warn">has changes</span> : <span className="hint">no changes</span>}
                </td>
                <td>
                  {!node.isRoot && (
                    <ConfirmButton
                      label="Delete"
                      labelContext={`branch ${node.name}`}
                      title={`Delete branch ${node.name}?`}
                      confirmLabel="Delete branch"
                      danger
                      onConfirm={() => remove(node.name)}
                    >
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
