import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createApiClient } from '../api/client.ts';
import { MeDocument } from '../api/generated/operations.ts';
import type { User } from '../api/types.ts';
import { Loading } from '../components/Status.tsx';
import { LoginPage } from '../screens/LoginPage.tsx';
import { Layout } from './Layout.tsx';
import { Routes } from './Routes.tsx';
import type { Navigation } from './navigation.ts';
import { createQueryClient } from './queries.ts';
import { NavigationProvider } from './router.tsx';
import { hasSessionFlag, SessionProvider, type Session } from './session.tsx';

type AuthState =
  { readonly status: 'checking' } | { readonly status: 'signedOut'; readonly notice?: string } | { readonly status: 'signedIn'; readonly user: User };

/** The application: resolves the cookie session, then shows either the login page or the signed-in screens. */
export function App({ navigation }: { readonly navigation: Navigation }) {
  const [auth, setAuth] = useState<AuthState>({ status: 'checking' });
  // One cache per app instance; what one user saw is dropped when the session ends.
  const [queryClient] = useState(createQueryClient);
  const onSessionLost = useRef<() => void>(() => {});
  onSessionLost.current = () =>
    setAuth((current) =>
      current.status === 'signedIn' ? { status: 'signedOut', notice: 'Your session has ended. Please sign in again.' } : current,
    );
  useEffect(() => {
    if (auth.status === 'signedOut') queryClient.clear();
  }, [auth.status, queryClient]);

  const api = useMemo(
    () =>
      createApiClient({
        fetch: (input, init) => window.fetch(input, init),
        hasSessionFlag: () => hasSessionFlag(document),
        onSessionLost: () => onSessionLost.current(),
      }),
    [],
  );

  const loadUser = useCallback(async (): Promise<boolean> => {
    if (!hasSessionFlag(document)) {
      setAuth({ status: 'signedOut' });
      return false;
    }
    try {
      const { me } = await api.request(MeDocument, {});
      setAuth({ status: 'signedIn', user: me });
      return true;
    } catch {
      setAuth({ status: 'signedOut' });
      return false;
    }
  }, [api]);

  useEffect(() => {
    void loadUser();
  }, [loadUser]);

  const session = useMemo<Session | null>(
    () =>
      auth.status === 'signedIn'
        ? {
            api,
            user: auth.user,
            async signOut() {
              await api.logout();
              setAuth({ status: 'signedOut', notice: 'You are signed out.' });
              navigation.navigate('/', { replace: true });
            },
            sessionEnded(notice) {
              setAuth({ status: 'signedOut', notice });
            },
          }
        : null,
    [api, auth, navigation],
  );

  return (
    <NavigationProvider value={navigation}>
      {auth.status === 'checking' && (
        <main className="centered">
          <Loading what="your session" />
        </main>
      )}
      {auth.status === 'signedOut' && (
        <LoginPage
          api={api}
          {...(auth.notice ? { notice: auth.notice } : {})}
          onSignedIn={async () => {
            if (!(await loadUser())) return false;
            // The login page is shown in place of the requested screen, so the user lands where they were going.
            const { path, search } = navigation.current();
            const next = new URLSearchParams(search).get('next');
            if (path === '/login') navigation.navigate(next?.startsWith('/') ? next : '/', { replace: true });
            return true;
          }}
        />
      )}
      {session && (
        <QueryClientProvider client={queryClient}>
          <SessionProvider value={session}>
            <Layout>
              <Routes />
            </Layout>
          </SessionProvider>
        </QueryClientProvider>
      )}
    </NavigationProvider>
  );
}
