import { useState, type FormEvent } from 'react';
import type { ApiKeyWithSecret } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ErrorBox } from '../components/Status.tsx';
import { createServiceKey, listServiceKeys } from './apiKeyQueries.ts';
import { EMPTY_SCOPE, KeyScopeFields, keyInputOf, type ScopeState } from './KeyScopeFields.tsx';
import { KeysManager } from './KeysManager.tsx';
import { DEFAULT_RULES, RuleEditor, rulesOf, type RuleDraft } from './RuleEditor.tsx';

/** Service keys of one organization, for its owners and admins (auth.md §8.3, §8.7). */
export function ServiceKeysPage({ params }: ScreenProps) {
  const org = params.org as string;
  return (
    <KeysManager
      title={`Service keys of ${org}`}
      intro="Service keys act for the organization itself, with the permission rules you give them."
      headingId="service-keys-title"
      heading="Keys"
      what="service keys"
      load={(api, includeRevoked) => listServiceKeys(api, org, includeRevoked)}
      listKey={queryKeys.organization(org)}
      createForm={(onCreated) => <CreateServiceKeyForm org={org} onCreated={onCreated} />}
    />
  );
}

function CreateServiceKeyForm({ org, onCreated }: { readonly org: string; readonly onCreated: (created: ApiKeyWithSecret) => void }) {
  const api = useApi();
  const action = useAction();
  const [scope, setScope] = useState<ScopeState>({ ...EMPTY_SCOPE, expiresInDays: '365' });
  const [rules, setRules] = useState<RuleDraft[]>([...DEFAULT_RULES]);
  const valid = scope.name.trim() !== '' && rules.every((r) => r.actions.length > 0 && r.subjects.length > 0);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const input = { ...keyInputOf({ ...scope, organizationId: org }, new Date()), organizationId: org, rules: rulesOf(rules) };
    const created = await action.run(() => createServiceKey(api, input));
    if (created) {
      setScope({ ...EMPTY_SCOPE, expiresInDays: '365' });
      setRules([...DEFAULT_RULES]);
      onCreated(created);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-service-key-title">
      <h2 id="create-service-key-title">Create a service key</h2>
      <KeyScopeFields state={scope} onChange={setScope} fixedOrganization={org} maxDays={730} />
      <h3>Permissions</h3>
      <RuleEditor rules={rules} onChange={setRules} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || !valid}>
        Create service key
      </button>
    </form>
  );
}
