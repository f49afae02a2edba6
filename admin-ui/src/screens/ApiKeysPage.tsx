import { useState, type FormEvent } from 'react';
import type { ApiKeyWithSecret } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ErrorBox } from '../components/Status.tsx';
import { createPersonalKey, listPersonalKeys } from './apiKeyQueries.ts';
import { EMPTY_SCOPE, KeyScopeFields, keyInputOf, type ScopeState } from './KeyScopeFields.tsx';
import { KeysManager } from './KeysManager.tsx';

/** Personal API keys of the signed-in user: list, create (secret once), rotate, revoke. */
export function ApiKeysPage(_props: ScreenProps) {
  return (
    <KeysManager
      title="API keys"
      intro="Personal keys act as you, limited by their scopes. Service keys of an organization are managed on the organization page."
      headingId="keys-title"
      heading="Your keys"
      what="API keys"
      load={listPersonalKeys}
      listKey={queryKeys.apiKeys()}
      createForm={(onCreated) => <CreatePersonalKeyForm onCreated={onCreated} />}
    />
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
