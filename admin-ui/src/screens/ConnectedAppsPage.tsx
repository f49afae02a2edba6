import { useState } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { MyOAuthGrantsDocument, RevokeOAuthGrantDocument } from '../api/generated/operations.ts';
import { useInvalidate, useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';

/** oauth.md §6 `OAuthGrant`. */
type OAuthGrant = {
  readonly id: string;
  readonly clientId: string;
  readonly clientName: string | null;
  readonly clientKind: 'registered' | 'metadataDocument';
  readonly scopes: readonly string[];
  readonly organizationId: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
};

async function listGrants(api: ApiClient): Promise<OAuthGrant[]> {
  return (await api.request(MyOAuthGrantsDocument, {})).myOAuthGrants;
}

async function revokeGrant(api: ApiClient, id: string): Promise<OAuthGrant> {
  return (await api.request(RevokeOAuthGrantDocument, { id })).revokeOAuthGrant;
}

const nameOf = (grant: OAuthGrant): string => grant.clientName ?? grant.clientId;

/** Apps connected through OAuth (MCP clients, AI agents): what they may do, and Revoke. */
export function ConnectedAppsPage(_props: ScreenProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const grants = useLoaded(queryKeys.oauthGrants(), () => listGrants(api));

  const revoke = async (grant: OAuthGrant): Promise<void> => {
    setNotice(null);
    if (await action.run(() => revokeGrant(api, grant.id))) {
      await invalidate(queryKeys.oauthGrants());
      setNotice(`“${nameOf(grant)}” was disconnected.`);
    }
  };

  return (
    <>
      <PageTitle title="Connected apps" />
      <p className="meta">
        Apps you allowed to act as you through OAuth, such as AI agents using the MCP endpoint. Revoking ends every token of the app at once.
      </p>
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={grants} what="connected apps">
        {(list) =>
          list.length === 0 ? (
            <Empty>No connected apps.</Empty>
          ) : (
            <GridTable
              items={list}
              rowKey={(grant) => grant.id}
              caption="Connected apps"
              scrollLabel="Connected apps, scrollable"
              head={
                <>
                  <th scope="col">App</th>
                  <th scope="col">Access</th>
                  <th scope="col">Organization</th>
                  <th scope="col">Connected</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </>
              }
              row={(grant) => (
                <>
                  <td>
                    {nameOf(grant)}
                    {grant.clientKind === 'registered' && <span className="badge badge-warn">unverified</span>}
                    <div className="path code">{grant.clientId}</div>
                  </td>
                  <td>{grant.scopes.includes('strata:write') ? 'Read and write' : 'Read only'}</td>
                  <td>{grant.organizationId ?? 'All my organizations'}</td>
                  <td>
                    <Time value={grant.createdAt} />
                  </td>
                  <td>
                    <Time value={grant.lastUsedAt} />
                  </td>
                  <td>
                    <ConfirmButton
                      label="Revoke"
                      labelContext={`${nameOf(grant)}, ${grant.organizationId ?? 'all organizations'}`}
                      title={`Disconnect “${nameOf(grant)}”?`}
                      confirmLabel="Revoke"
                      danger
                      disabled={action.busy}
                      onConfirm={() => revoke(grant)}
                    >
                      <p>The app loses access immediately and must ask you again to reconnect.</p>
                    </ConfirmButton>
                  </td>
                </>
              )}
            />
          )
        }
      </Async>
    </>
  );
}
