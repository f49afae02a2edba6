import { useState, type FormEvent } from 'react';
import { CreateProjectDocument, OrganizationDocument, ProjectsDocument } from '../api/generated/operations.ts';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { useInvalidate, useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Link, useNavigation } from '../app/router.tsx';
import { useApi, useSession } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Checkbox, TextField } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { isOrganizationManager, roleLabel } from './labels.ts';
import { MembersSection } from './MembersSection.tsx';

const PAGE_SIZE = 20;

/** One organization: its projects (paged), project creation, members and, for managers, service keys. */
export function OrganizationPage({ params }: ScreenProps) {
  const org = params.org as string;
  const { user } = useSession();
  const organization = useOperation(
    queryKeys.organization(org),
    OrganizationDocument,
    { data: { organizationId: org } },
    { select: (d) => d.organization },
  );
  const manager = organization.status === 'success' && isOrganizationManager(organization.data.myRole, user.role);
  return (
    <>
      <PageTitle title={`Organization ${org}`}>
        {manager && (
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
      <Async value={organization} what="the organization">
        {(o) => (
          <>
            <p className="meta">
              {o.isPersonal ? 'Personal organization' : 'Organization'} · your role: <strong>{roleLabel(o.myRole)}</strong> · created{' '}
              <Time value={o.createdAt} />
            </p>
            <ProjectsSection org={org} />
            <MembersSection
              org={org}
              isPersonal={o.isPersonal}
              canManage={isOrganizationManager(o.myRole, user.role)}
              isOwner={o.myRole === 'organizationOwner' || user.role === 'systemAdmin'}
            />
          </>
        )}
      </Async>
    </>
  );
}

function ProjectsSection({ org }: { readonly org: string }) {
  const pager = useCursorPager();
  const projects = useOperation(
    queryKeys.organization(org),
    ProjectsDocument,
    { data: { organizationId: org, first: PAGE_SIZE, after: pager.after ?? null } },
    { select: (d) => d.projects },
  );
  return (
    <section aria-labelledby="projects-title">
      <h2 id="projects-title">Projects</h2>
      <Async value={projects} what="projects">
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
  const invalidate = useInvalidate();
  const action = useAction();
  const [name, setName] = useState('');
  const [branch, setBranch] = useState('master');
  const [isPublic, setPublic] = useState(false);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const created = await action.run(() =>
      api.request(CreateProjectDocument, {
        data: { organizationId: org, projectName: name.trim(), branchName: branch.trim() || 'master', isPublic },
      }),
    );
    if (created) {
      await invalidate(queryKeys.organization(org));
      navigation.navigate(pathOf('org', org, 'project', created.createProject.name));
    }
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
