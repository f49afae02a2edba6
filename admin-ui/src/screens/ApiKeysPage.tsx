import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyWithSecret } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { Checkbox } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { createPersonalKey, listPersonalKeys, revokeKey, rotateKey } from './apiKeyQueries.ts';
import { EMPTY_SCOPE, KeyScopeFields, keyInputOf, type ScopeState } from './KeyScopeFields.tsx';
import { KeyTable } from './KeyTable.tsx';
import { SecretPanel } from './SecretPanel.tsx';

/** Personal API keys of the signed-in user: list, create (secret once), rotate, revoke. */
export function ApiKeysPage(_props: ScreenProps) {
  const api = useApi();
  const action = useAction();
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<ApiKeyWithSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [keys, reload] = useLoad(() => listPersonalKeys(api, includeRevoked), [includeRevoked], version);
  const changed = (): void => setVersion((v) => v + 1);

  const rotate = async (key: ApiKey): Promise<void> => {
    setNotice(null);
    const rotated = await action.run(() => rotateKey(api, key.id));
    if (rotated) {
      setSecret(rotated);
      changed();
    }
  };
  const revoke = async (key: ApiKey): Promise<void> => {
    setNotice(null);
    const revoked = await action.run(() => revokeKey(api, key.id));
    if (revoked) {
      setNotice(`Key “${revoked.name}” was revoked.`);
      changed();
    }
  };

  return (
    <>
      <PageTitle title="API keys" />
      <p className="meta">Personal keys act as you, limited by their scopes. Service keys of an organization are managed on the organization page.</p>
      {secret && <SecretPanel created={secret} onDone={() => setSecret(null)} />}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <section aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        <Checkbox label="Show revoked keys" checked={includeRevoked} onChange={setIncludeRevoked} />
        <Async value={keys} what="API keys" onRetry={reload}>
          {(list) => <KeyTable keys={list} busy={action.busy} onRotate={rotate} onRevoke={revoke} />}
        </Async>
      </section>
      <CreatePersonalKeyForm
        onCreated={(created) => {
          setNotice(null);
          setSecret(created);
          changed();
        }}
      />
    </>
  );
}

function CreatePersonalKeyForm({ onCreated }: { readonly onCreated: (created: ApiKeyWithSecret) => void }) {
  const api = useApi();
  const action = useAction();
  const [scope, setScope] = useState<ScopeState>(EMPTY_SCOPE);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const created = await action.run(() => createPersonalKey(api, keyInputOf(scope, new Date())));
    if (created) {
      setScope(EMPTY_SCOPE);
      onCreated(created);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a personal key</h2>
      <KeyScopeFields state={scope} onChange={setScope} maxDays={365} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || scope.name.trim() === ''}>
        Create key
      </button>
    </form>
  );
}
