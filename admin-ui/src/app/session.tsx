import { createContext, useContext } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { User } from '../api/types.ts';

export type Session = {
  readonly api: ApiClient;
  readonly user: User;
  signOut(): Promise<void>;
  /** The server ended every session of the user (own password change, log out everywhere): back to the login page. */
  sessionEnded(notice: string): void;
};

const SessionContext = createContext<Session | null>(null);

export const SessionProvider = SessionContext.Provider;

/** The signed-in user and the API client (only rendered inside the signed-in part of the app). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('SessionProvider missing');
  return session;
}

export function useApi(): ApiClient {
  return useSession().api;
}

/** Whether the browser holds the `svc_session` flag cookie (auth.md §4); it is not a credential. */
export function hasSessionFlag(doc: Document): boolean {
  return doc.cookie.split(';').some((part) => part.trim().startsWith('svc_session='));
}
