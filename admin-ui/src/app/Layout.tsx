import type { ReactNode } from 'react';
import { Breadcrumbs } from '../components/Breadcrumbs.tsx';
import { Link, useLocation } from './router.tsx';
import { useSession } from './session.tsx';

const NAV = [
  { to: '/', label: 'Organizations', active: (path: string) => path === '/' || path.startsWith('/org/') },
  { to: '/keys', label: 'API keys', active: (path: string) => path === '/keys' },
  { to: '/connected-apps', label: 'Connected apps', active: (path: string) => path === '/connected-apps' },
  { to: '/token', label: 'Get token', active: (path: string) => path === '/token' },
  { to: '/users', label: 'Users', active: (path: string) => path === '/users' || path.startsWith('/users/'), adminOnly: true },
  { to: '/operations', label: 'Operations', active: (path: string) => path === '/operations', adminOnly: true },
  { to: '/account', label: 'Account', active: (path: string) => path === '/account' },
];

/** Header with the main navigation and the signed-in user, breadcrumbs, and the screen. */
export function Layout({ children }: { readonly children: ReactNode }) {
  const { user, signOut } = useSession();
  const { path } = useLocation();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Strata Admin
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((item) => !('adminOnly' in item) || user.role === 'systemAdmin').map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={item.active(path) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="user">
          <span className="username" title={user.role === 'systemAdmin' ? 'System administrator' : 'User'}>
            {user.username}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Log out
          </button>
        </div>
      </header>
      <Breadcrumbs path={path} />
      <main id="main" className="content">
        {children}
      </main>
    </>
  );
}
