import { useState } from 'react';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useLoad } from '../app/useLoad.ts';
import { CopyButton } from '../components/CopyButton.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';

const ISSUE = 'query IssueAccessToken { issueAccessToken { accessToken expiresIn } }';

/** A fresh access token for scripts and tools (auth.md §11): shown with a copy button and its expiry. */
export function TokenPage(_props: ScreenProps) {
  const api = useApi();
  const [version, setVersion] = useState(0);
  const [token, reload] = useLoad(async () => {
    const { issueAccessToken } = await api.graphql<{ issueAccessToken: { accessToken: string; expiresIn: number } }>(ISSUE);
    return { ...issueAccessToken, expiresAt: new Date(Date.now() + issueAccessToken.expiresIn * 1000).toISOString() };
  }, [], version);
  return (
    <>
      <PageTitle title="Get token" />
      <p className="meta">
        A bearer token for <code>Authorization: Bearer …</code>. It belongs to this session: logging out ends it too.
      </p>
      <Async value={token} what="a token" onRetry={reload}>
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
            <button type="button" onClick={() => setVersion((v) => v + 1)}>
              Get a new token
            </button>
          </div>
        )}
      </Async>
    </>
  );
}
