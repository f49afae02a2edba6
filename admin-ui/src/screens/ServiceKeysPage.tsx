import { useState, type FormEvent } from 'react';
import type { ApiKey, ApiKeyWithSecret } from '../api/types.ts';
import type { ScreenProps } from '../app/navigation.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { useLoad } from '../app/useLoad.ts';
import { Checkbox } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { createServiceKey, listServiceKeys, revokeKey, rotateKey } from './apiKeyQueries.ts';
import { EMPTY_SCOPE, KeyScopeFields, keyInputOf, type ScopeState } from './KeyScopeFields.tsx';
import { KeyTable } from './KeyTable.tsx';
import { DEFAULT_RULES, RuleEditor, rulesOf, type RuleDraft } from './RuleEditor.tsx';
import { SecretPanel } from './SecretPanel.tsx';

/** Service keys of one organization, for its owners and admins (auth.md §8.3, §8.7). */
export function ServiceKeysPage({ params }: ScreenProps) {
  const org = params.org as string;
  const api = useApi();
  const action = useAction();
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<ApiKeyWithSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [keys, reload] = useLoad(() => listServiceKeys(api, org, includeRevoked), [org, includeRevoked], version);
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
      <PageTitle title={`Service keys of ${org}`} />
      <p className="meta">Service keys act for the organization itself, with the permission rules you give them.</p>
      {secret && <SecretPanel created={secret} onDone={() => setSecret(null)} />}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <section aria-labelledby="service-keys-title">
        <h2 id="service-keys-title">Keys</h2>
        <Checkbox label="Show revoked keys" checked={includeRevoked} onChange={setIncludeRevoked} />
        <Async value={keys} what="service keys" onRetry={reload}>
          {(list) => <KeyTable keys={list} busy={action.busy} onRotate={rotate} onRevoke={revoke} />}
        </Async>
      </section>
      <CreateServiceKeyForm
        org={org}
        onCreated={(created) => {
          setNotice(null);
          setSecret(created);
          changed();
        }}
      />
    </>
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
