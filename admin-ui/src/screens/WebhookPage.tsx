import { useState, type FormEvent } from 'react';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { Link, useNavigation } from '../app/router.tsx';
import { useInvalidate, useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { Checkbox } from '../components/Fields.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, ErrorBox, Notice } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import {
  deleteWebhook,
  getWebhook,
  pingWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type Webhook,
  type WebhookWithSecret,
} from './webhookQueries.ts';
import { WebhookDeliveries } from './WebhookDeliveries.tsx';
import { isWebhookFormValid, WebhookFields, webhookFormOf, webhookSettingsOf, type WebhookFormState } from './WebhookFields.tsx';
import { WebhookSecret, webhookState } from './WebhooksPage.tsx';

/** One webhook: ping, rotate secret, delete, edit, and its delivery log with redeliver (admin-ui.md §3.1). */
export function WebhookPage({ params }: ScreenProps) {
  const org = params.org as string;
  const id = params.webhook as string;
  const api = useApi();
  const navigation = useNavigation();
  const action = useAction();
  const invalidate = useInvalidate();
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const webhook = useLoaded(queryKeys.webhook(id), () => getWebhook(api, id));
  // The organization's webhook list shows the same webhook.
  const changed = (): Promise<void> => invalidate(queryKeys.webhook(id), queryKeys.organization(org));

  const ping = async (): Promise<void> => {
    setNotice(null);
    const delivery = await action.run(() => pingWebhook(api, id));
    if (delivery) {
      await invalidate(queryKeys.webhook(id));
      setNotice(`Ping queued as delivery ${delivery.id}.`);
    }
  };
  const rotate = async (): Promise<void> => {
    setNotice(null);
    const rotated = await action.run(() => rotateWebhookSecret(api, id));
    if (rotated) {
      await changed();
      setSecret(rotated);
    }
  };
  const remove = async (): Promise<void> => {
    const done = await action.run(() => deleteWebhook(api, id).then(() => true));
    if (done) {
      navigation.navigate(pathOf('org', org, 'webhooks'));
      await invalidate(queryKeys.organization(org));
    }
  };

  return (
    <>
      <PageTitle title="Webhook">
        <Link to={pathOf('org', org, 'webhooks')} className="button-link">
          All webhooks
        </Link>
      </PageTitle>
      {secret && <WebhookSecret created={secret} onDone={() => setSecret(null)} />}
      {notice && <Notice kind="success">{notice}</Notice>}
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={webhook} what="the webhook">
        {(hook) => (
          <>
            <section aria-labelledby="webhook-summary-title" className="card">
              <h2 id="webhook-summary-title" className="break">
                {hook.url}
              </h2>
              <p className="meta">
                <span className={hook.active ? 'status status-active' : 'status status-failed'}>{webhookState(hook)}</span> · secret{' '}
                <code>{hook.secretPrefix}…</code> · created <Time value={hook.createdAt} />
                {hook.disabledAt && (
                  <>
                    {' '}
                    · disabled <Time value={hook.disabledAt} />
                  </>
                )}
              </p>
              <div className="actions">
                <button type="button" className="primary" disabled={action.busy} onClick={() => void ping()}>
                  Ping
                </button>
                <ConfirmButton
                  label="Rotate secret"
                  title="Rotate the signing secret?"
                  confirmLabel="Rotate secret"
                  disabled={action.busy}
                  onConfirm={rotate}
                >
                  <p>A new secret is created and shown once. For 24 hours requests carry a second signature made with the current secret.</p>
                </ConfirmButton>
                <ConfirmButton
                  label="Delete"
                  title="Delete this webhook?"
                  confirmLabel="Delete webhook"
                  danger
                  disabled={action.busy}
                  onConfirm={remove}
                >
                  <p>No more events are sent to {hook.url}. This cannot be undone.</p>
                </ConfirmButton>
              </div>
            </section>
            <EditWebhookForm webhook={hook} onSaved={changed} />
          </>
        )}
      </Async>
      <WebhookDeliveries webhookId={id} />
    </>
  );
}

function EditWebhookForm({ webhook, onSaved }: { readonly webhook: Webhook; readonly onSaved: () => Promise<void> }) {
  const api = useApi();
  const action = useAction();
  const [state, setState] = useState<WebhookFormState>(() => webhookFormOf(webhook));
  const [active, setActive] = useState(webhook.active);
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setSaved(false);
    const updated = await action.run(() => updateWebhook(api, webhook.id, { ...webhookSettingsOf(state), active }));
    if (updated) {
      await onSaved();
      setSaved(true);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="edit-webhook-title">
      <h2 id="edit-webhook-title">Settings</h2>
      <WebhookFields state={state} onChange={setState} />
      <Checkbox label="Enabled" checked={active} onChange={setActive} />
      <p className="hint">Enabling a disabled webhook resets its count of failed deliveries.</p>
      {action.error !== null && <ErrorBox error={action.error} />}
      {saved && <Notice kind="success">Settings saved.</Notice>}
      <button type="submit" className="primary" disabled={action.busy || !isWebhookFormValid(state)}>
        Save settings
      </button>
    </form>
  );
}
