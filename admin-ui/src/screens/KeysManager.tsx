import type { QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.ts';
import type { ApiKey, ApiKeyWithSecret } from '../api/types.ts';
import { useInvalidate, useLoaded } from '../app/queries.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { Checkbox } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { revokeKey, rotateKey } from './apiKeyQueries.ts';
import { KeyTable } from './KeyTable.tsx';
import { SecretPanel } from './SecretPanel.tsx';

interface KeysManagerProps {
  readonly title: string;
  readonly intro: string;
  /** Id of the list's heading, which labels its section. */
  readonly headingId: string;
  readonly heading: string;
  /** What the list holds, for its loading and error messages. */
  readonly what: string;
  readonly load: (api: ApiClient, includeRevoked: boolean) => Promise<readonly ApiKey[]>;
  /** The cache key of the list (queryKeys.ts); every key write invalidates it. */
  readonly listKey: QueryKey;
  /** The create form, given the callback to call with a created key. */
  readonly createForm: (onCreated: (created: ApiKeyWithSecret) => void) => ReactNode;
}

/** A page of API keys (personal or service): list with revoked ones on demand, rotate, revoke, create (secret once). */
export function KeysManager({ title, intro, headingId, heading, what, load, listKey, createForm }: KeysManagerProps) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const [secret, setSecret] = useState<ApiKeyWithSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const keys = useLoaded([...listKey, 'keys', includeRevoked], () => load(api, includeRevoked));
  const changed = (): Promise<void> => invalidate(listKey);

  const rotate = async (key: ApiKey): Promise<void> => {
    setNotice(null);
    const rotated = await action.run(() => rotateKey(api, key.id));
    if (rotated) {
      await changed();
      setSecret(rotated);
    }
  };
  const revoke = async (key: ApiKey): Promise<void> => {
    setNotice(null);
    const revoked = await action.run(() => revokeKey(api, key.id));
    if (revoked) {
      await changed();
      setNotice(`Key “${revoked.name}” was revoked.`);
    }
  };

  return (
    <>
      <PageTitle title={title} />
      <p className="meta">{intro}</p>
      {secret && <SecretPanel created={secret} onDone={() => setSecret(null)} />}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <section aria-labelledby={headingId}>
        <h2 id={headingId}>{heading}</h2>
        <Checkbox label="Show revoked keys" checked={includeRevoked} onChange={setIncludeRevoked} />
        <Async value={keys} what={what}>
          {(list) => <KeyTable keys={list} busy={action.busy} onRotate={rotate} onRevoke={revoke} />}
        </Async>
      </section>
      {createForm((created) => {
        setNotice(null);
        setSecret(created);
        void changed();
      })}
    </>
  );
}
