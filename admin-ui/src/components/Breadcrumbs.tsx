import { matchPath, pathOf } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';

type Crumb = { readonly to: string; readonly label: string };

function revisionLabel(rev: string): string {
  if (rev === 'draft') return 'draft';
  if (rev === 'head') return 'HEAD';
  return `revision ${rev.slice(0, 8)}`;
}

/** Where the current screen sits in organization → project → branch → revision → table → row. */
export function crumbsOf(path: string): Crumb[] {
  const segments = path.split('/').filter(Boolean);
  const crumbs: Crumb[] = [];
  const params =
    matchPath('/org/:org/project/:project/branch/:branch/:rev/table/:table/row/:row', path) ??
    matchPath('/org/:org/project/:project/branch/:branch/:rev/table/:table', path) ??
    matchPath('/org/:org/project/:project/branch/:branch/:rev', path) ??
    matchPath('/org/:org/project/:project/endpoints', path) ??
    matchPath('/org/:org/project/:project', path) ??
    matchPath('/org/:org/keys', path) ??
    matchPath('/org/:org', path);
  if (!params || segments[0] !== 'org') return crumbs;
  const { org, project, branch, rev, table, row } = params;
  crumbs.push({ to: '/', label: 'Organizations' });
  if (org === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org), label: org });
  if (path.endsWith('/keys') && project === undefined) crumbs.push({ to: pathOf('org', org, 'keys'), label: 'Service keys' });
  if (project === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project), label: project });
  if (path.endsWith('/endpoints') && branch === undefined) crumbs.push({ to: pathOf('org', org, 'project', project, 'endpoints'), label: 'Endpoints' });
  if (branch === undefined || rev === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev), label: `${branch} (${revisionLabel(rev)})` });
  if (table === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev, 'table', table), label: table });
  if (row !== undefined) crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev, 'table', table, 'row', row), label: row });
  return crumbs;
}

export function Breadcrumbs({ path }: { readonly path: string }) {
  const crumbs = crumbsOf(path);
  if (crumbs.length < 2) return null;
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.to}>
            {index === crumbs.length - 1 ? <span aria-current="page">{crumb.label}</span> : <Link to={crumb.to}>{crumb.label}</Link>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
