import { matchPath, pathOf } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';

type Crumb = { readonly to: string; readonly label: string };

function revisionLabel(rev: string): string {
  if (rev === 'draft') return 'draft';
  if (rev === 'head') return 'HEAD';
  return `revision ${rev.slice(0, 8)}`;
}

const PATTERNS = [
  '/org/:org/project/:project/branch/:branch/:rev/table/:table/row/:row/history',
  '/org/:org/project/:project/branch/:branch/:rev/table/:table/row/:row',
  '/org/:org/project/:project/branch/:branch/:rev/table/:table',
  '/org/:org/project/:project/branch/:branch/:rev/changes',
  '/org/:org/project/:project/branch/:branch/:rev',
  '/org/:org/project/:project/endpoints',
  '/org/:org/project/:project/compare',
  '/org/:org/project/:project',
  '/org/:org/keys',
  '/org/:org/webhooks/:webhook',
  '/org/:org/webhooks',
  '/org/:org',
];

/** Where the current screen sits in organization → project → branch → revision → table → row. */
export function crumbsOf(path: string): Crumb[] {
  const crumbs: Crumb[] = [];
  // A user's page sits below the Users list (system administrators).
  if (matchPath('/users/:user', path))
    return [
      { to: '/users', label: 'Users' },
      { to: path, label: 'User' },
    ];
  const pattern = PATTERNS.find((candidate) => matchPath(candidate, path));
  const params = pattern === undefined ? null : matchPath(pattern, path);
  if (!params || pattern === undefined) return crumbs;
  // The screen a pattern ends in (`history`, `changes`, `compare`, `endpoints`, `keys`) gets a last crumb of its own.
  const screen = pattern.slice(pattern.lastIndexOf('/') + 1);
  const here = (label: string): void => void crumbs.push({ to: path, label });
  const { org, project, branch, rev, table, row } = params;
  crumbs.push({ to: '/', label: 'Organizations' });
  if (org === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org), label: org });
  if (screen === 'keys') here('Service keys');
  if (screen === 'webhooks' || params.webhook !== undefined) crumbs.push({ to: pathOf('org', org, 'webhooks'), label: 'Webhooks' });
  if (params.webhook !== undefined) here('Webhook');
  if (project === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project), label: project });
  if (screen === 'endpoints') here('Endpoints');
  if (screen === 'compare') here('Compare');
  if (branch === undefined || rev === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev), label: `${branch} (${revisionLabel(rev)})` });
  if (screen === 'changes') here('Changes');
  if (table === undefined) return crumbs;
  crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev, 'table', table), label: table });
  if (row !== undefined) crumbs.push({ to: pathOf('org', org, 'project', project, 'branch', branch, rev, 'table', table, 'row', row), label: row });
  if (screen === 'history') here('History');
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
