import type { ComponentType } from 'react';
import { Empty } from '../components/Status.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { AccountPage } from '../screens/AccountPage.tsx';
import { ApiKeysPage } from '../screens/ApiKeysPage.tsx';
import { ComparePage } from '../screens/ComparePage.tsx';
import { MergePage } from '../screens/merge/MergePage.tsx';
import { RestorePage } from '../screens/merge/RestorePage.tsx';
import { ConnectedAppsPage } from '../screens/ConnectedAppsPage.tsx';
import { EndpointsPage } from '../screens/EndpointsPage.tsx';
import { OrganizationPage } from '../screens/OrganizationPage.tsx';
import { OperationsPage } from '../screens/OperationsPage.tsx';
import { OrganizationsPage } from '../screens/OrganizationsPage.tsx';
import { ProjectPage } from '../screens/ProjectPage.tsx';
import { ReviewChangesPage } from '../screens/ReviewChangesPage.tsx';
import { RevisionPage } from '../screens/RevisionPage.tsx';
import { RowHistoryPage } from '../screens/RowHistoryPage.tsx';
import { RowPage } from '../screens/RowPage.tsx';
import { ServiceKeysPage } from '../screens/ServiceKeysPage.tsx';
import { TablePage } from '../screens/TablePage.tsx';
import { TokenPage } from '../screens/TokenPage.tsx';
import { UserPage } from '../screens/UserPage.tsx';
import { UsersPage } from '../screens/UsersPage.tsx';
import { WebhookPage } from '../screens/WebhookPage.tsx';
import { WebhooksPage } from '../screens/WebhooksPage.tsx';
import { matchPath, type ScreenProps } from './navigation.ts';
import { Link, useLocation } from './router.tsx';

const ROUTES: readonly [string, ComponentType<ScreenProps>][] = [
  ['/', OrganizationsPage],
  ['/login', OrganizationsPage],
  ['/keys', ApiKeysPage],
  ['/connected-apps', ConnectedAppsPage],
  ['/token', TokenPage],
  ['/operations', OperationsPage],
  ['/account', AccountPage],
  ['/users', UsersPage],
  ['/users/:user', UserPage],
  ['/org/:org', OrganizationPage],
  ['/org/:org/keys', ServiceKeysPage],
  ['/org/:org/webhooks', WebhooksPage],
  ['/org/:org/webhooks/:webhook', WebhookPage],
  ['/org/:org/project/:project', ProjectPage],
  ['/org/:org/project/:project/endpoints', EndpointsPage],
  ['/org/:org/project/:project/compare', ComparePage],
  ['/org/:org/project/:project/branch/:branch/:rev', RevisionPage],
  ['/org/:org/project/:project/branch/:branch/:rev/changes', ReviewChangesPage],
  ['/org/:org/project/:project/branch/:branch/draft/merge', MergePage],
  ['/org/:org/project/:project/branch/:branch/:rev/restore', RestorePage],
  ['/org/:org/project/:project/branch/:branch/:rev/table/:table', TablePage],
  ['/org/:org/project/:project/branch/:branch/:rev/table/:table/row/:row', RowPage],
  ['/org/:org/project/:project/branch/:branch/:rev/table/:table/row/:row/history', RowHistoryPage],
];

export function Routes() {
  const { path } = useLocation();
  for (const [pattern, Screen] of ROUTES) {
    const params = matchPath(pattern, path);
    // The key remounts a screen when its parameters change (fresh state per object).
    if (params) return <Screen key={`${pattern}|${JSON.stringify(params)}`} params={params} />;
  }
  return (
    <>
      <PageTitle title="Page not found" />
      <Empty>
        There is nothing at this address. <Link to="/">Go to your organizations</Link>.
      </Empty>
    </>
  );
}
