import { useState, type FormEvent } from 'react';
import { PAGE_INFO } from '../api/fragments.ts';
import type { Connection, Organization, Project } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';
import { Link, useNavigation } from '../app/router.tsx';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { Checkbox, TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { isOrganizationManager, roleLabel } from './labels.ts';
import { MembersSection } from './MembersSection.tsx';

const PAGE_SIZE = 20;
const ORGANIZATION = `query Organization($org: GetOrganizationInput!) { organization(data: $org) { id isPersonal createdAt myRole } }`;
const PROJECTS = `query Projects($data: GetProjectsInput!) {
  projects(data: $data) { ${PAGE_INFO} edges { node { id organizationId name isPublic createdAt } } }
}`;
const CREATE_PROJECT = `mutation CreateProject($data: CreateProjectInput!) { createProject(data: $data) { id name } }`;

/** One organization: its projects (paged), project creation, members and, for managers, service keys. */
export function OrganizationPage({ params }: ScreenProps) {
  const org = params.org as string;
  const api = useApi();
  const { user } = useSession();
  const [organization, reloadOrganization] = useLoad(
    () => api.graphql<{ organization: Organization }>(ORGANIZATION, { org: { organizationId: org } }).then((d) => d.organization),
    [org],
  );
  return (
    <>
      <PageTitle title={`Organization ${org}`}>
        {organization.status === 'ready' && isOrganizationManager(organization.data.myRole, user.role) && (
          <>
            <Link to={pathOf('org', org, 'keys')} className="button-link">
              Service API keys
            </Link>
            <Link to={pathOf('org', org, 'webhooks')} className="button-link">
              Webhooks
            </Link>
          </>
        )}
      </PageTitle>
      <Async value={organization} what="the organization" onRetry={reloadOrganization}>
        {(o) => (
          <>
            <p className="meta">
              {o.isPersonal ? 'Personal organization' : 'Organization'} · your role: <strong>{roleLabel(o.myRole)}</strong> · created{' '}
              <Time value={o.createdAt} />
            </p>
            <ProjectsSection org={org} />
            <MembersSection org={org} canManage={isOrganizationManager(o.myRole, user.role)} isOwner={o.myRole === 'organizationOwner' || user.role === 'systemAdmin'} />
          </>
        )}
      </Async>
    </>
  );
}

function ProjectsSection({ org }: { readonly org: string }) {
  const api = useApi();
  const pager = useCursorPager();
  const [projects, reload] = useLoad(
    () =>
      api
        .graphql<{ projects: Connection<Project> }>(PROJECTS, { data: { organizationId: org, first: PAGE_SIZE, after: pager.after } })
        .then((d) => d.projects),
    [org, pager.after],
  );
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title">Projects</h2>
      <Async value={projects} what="projects" onRetry={reload}>
        {(connection) => (
          <PagedTable
            connection={connection}
            empty="No projects yet. Create the first one below."
            caption={<>Projects of {org}</>}
            head={
              <>
                <th scope="col">Project</th>
                <th scope="col">Visibility</th>
                <th scope="col">Created</th>
              </>
            }
            row={(node) => (
              <>
                <td>
                  <Link to={pathOf('org', org, 'project', node.name)}>{node.name}</Link>
                </td>
                <td>{node.isPublic ? 'Public' : 'Private'}</td>
                <td>
                  <Time value={node.createdAt} />
                </td>
              </>
            )}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="projects"
          />
        )}
      </Async>
      <CreateProjectForm org={org} />
    </section>
  );
}

function CreateProjectForm({ org }: { readonly org: string }) {
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const [name, setName] = useState('');
  const [branch, setBranch] = useState('master');
  const [isPublic, setPublic] = useState(false);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const created = await action.run(() =>
      api.graphql<{ createProject: Project }>(CREATE_PROJECT, {
        data: { organizationId: org, projectName: name.trim(), branchName: branch.trim() || 'master', isPublic },
      }),
    );
    if (created) navigation.navigate(pathOf('org', org, 'project', created.createProject.name));
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-project-title">
      <h3 id="create-project-title">Create a project</h3>
      <div className="form-row">
        <TextField label="Project name" value={name} onChange={setName} required maxLength={64} />
        <TextField label="Root branch name" value={branch} onChange={setBranch} required maxLength={64} />
      </div>
      <Checkbox label="Public (anyone may read it)" checked={isPublic} onChange={setPublic} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || name.trim() === ''}>
        Create project
      </button>
    </form>
  );
}
