import { IssueAccessTokenDocument } from '../api/generated/operations.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';

/** A fresh access token for scripts and tools (auth.md §11): shown with a copy button and its expiry. */
export function TokenPage(_props: ScreenProps) {
  const api = useApi();
  // A token is never kept once its screen is left (gcTime 0): each visit asks for a fresh one.
  const token = useLoaded(
    queryKeys.accessToken(),
    async () => {
      const { issueAccessToken } = await api.request(IssueAccessTokenDocument, {});
      return { ...issueAccessToken, expiresAt: new Date(Date.now() + issueAccessToken.expiresIn * 1000).toISOString() };
    },
    { gcTime: 0 },
  );
  return (
    <>
      <PageTitle title="Get token" />
      <p className="meta">
        A bearer token for <code>Authorization: Bearer …</code>. It belongs to this session: logging out ends it too.
      </p>
      <Async value={token} what="a token">
        {(t) => (
          <div className="card">
            <label htmlFor="access-token">Access token</label>
            <div className="secret-row">
              <input id="access-token" className="code secret" readOnly value={t.accessToken} onFocus={(event) => event.target.select()} />
              <CopyButton text={t.accessToken} />
            </div>
            <p className="meta">
              Expires <Time value={t.expiresAt} /> (in {Math.round(t.expiresIn / 60)} minutes).
            </p>
            <button type="button" onClick={() => void token.refetch()}>
              Get a new token
            </button>
          </div>
        )}
      </Async>
    </>
  );
}
