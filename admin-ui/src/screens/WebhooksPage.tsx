import { useState, type FormEvent } from 'react';
import { pathOf, type ScreenProps } from '../app/navigation.ts';
import { Link } from '../app/router.tsx';
import { useInvalidate, useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { GridTable } from '../components/GridTable.tsx';
import { OneTimeSecret } from '../components/OneTimeSecret.tsx';
import { PageTitle } from '../components/PageTitle.tsx';
import { Async, Empty, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { createWebhook, listWebhooks, type Webhook, type WebhookWithSecret } from './webhookQueries.ts';
import { EMPTY_WEBHOOK_FORM, isWebhookFormValid, WebhookFields, webhookSettingsOf, type WebhookFormState } from './WebhookFields.tsx';

/** The organization's webhooks (admin-ui.md §3.1, changes.md §6): list and create; each opens its own screen. */
export function WebhooksPage({ params }: ScreenProps) {
  const org = params.org as string;
  const api = useApi();
  const invalidate = useInvalidate();
  const [created, setCreated] = useState<WebhookWithSecret | null>(null);
  const webhooks = useLoaded([...queryKeys.organization(org), 'webhooks'], () => listWebhooks(api, org));
  return (
    <>
      <PageTitle title={`Webhooks of ${org}`} />
      <p className="meta">
        Webhooks send signed <code>POST</code> requests (Standard Webhooks) to your URL when data changes in this organization.
      </p>
      {created && <WebhookSecret created={created} onDone={() => setCreated(null)} />}
      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title">Webhooks</h2>
        <Async value={webhooks} what="webhooks">
          {(list) => <WebhookTable org={org} webhooks={list} />}
        </Async>
      </section>
      <CreateWebhookForm
        org={org}
        onCreated={(result) => {
          setCreated(result);
          void invalidate(queryKeys.organization(org));
        }}
      />
    </>
  );
}

/** A new or rotated signing secret, shown once. */
export function WebhookSecret({ created, onDone }: { readonly created: WebhookWithSecret; readonly onDone: () => void }) {
  return (
    <OneTimeSecret
      title={`Signing secret of ${created.webhook.url}`}
      label="Webhook signing secret"
      secret={created.secret}
      lost="if it is lost, rotate the secret."
      onDone={onDone}
    >
      <p className="meta">
        Verify the <code>webhook-signature</code> header of every request with it (any Standard Webhooks library does).
      </p>
    </OneTimeSecret>
  );
}

export function webhookState(webhook: Webhook): string {
  if (webhook.active) return webhook.consecutiveFailures > 0 ? `enabled · ${webhook.consecutiveFailures} failed in a row` : 'enabled';
  return webhook.disabledReason ? `disabled: ${webhook.disabledReason}` : 'disabled';
}

function WebhookTable({ org, webhooks }: { readonly org: string; readonly webhooks: readonly Webhook[] }) {
  if (webhooks.length === 0) return <Empty>No webhooks yet. Create the first one below.</Empty>;
  return (
    <GridTable
      items={webhooks}
      rowKey={(webhook) => webhook.id}
      caption={`Webhooks of ${org}`}
      scrollLabel="Webhooks, scrollable"
      head={
        <>
          <th scope="col">URL</th>
          <th scope="col">Events</th>
          <th scope="col">Filters</th>
          <th scope="col">Status</th>
          <th scope="col">Created</th>
        </>
      }
      row={(webhook) => (
        <>
          <td>
            <Link to={pathOf('org', org, 'webhooks', webhook.id)}>{webhook.url}</Link>
            {webhook.description && <div className="meta">{webhook.description}</div>}
          </td>
          <td>{webhook.types.join(', ')}</td>
          <td>
            project: {webhook.projectName ?? 'all'} · branches: {webhook.branchNames?.join(', ') ?? 'all'}
          </td>
          <td>
            <span className={webhook.active ? 'status status-active' : 'status status-failed'}>{webhookState(webhook)}</span>
          </td>
          <td>
            <Time value={webhook.createdAt} />
          </td>
        </>
      )}
    />
  );
}

function CreateWebhookForm({ org, onCreated }: { readonly org: string; readonly onCreated: (created: WebhookWithSecret) => void }) {
  const api = useApi();
  const action = useAction();
  const [state, setState] = useState<WebhookFormState>(EMPTY_WEBHOOK_FORM);
  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const created = await action.run(() => createWebhook(api, org, webhookSettingsOf(state)));
    if (created) {
      setState(EMPTY_WEBHOOK_FORM);
      onCreated(created);
    }
  };
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} aria-labelledby="create-webhook-title">
      <h2 id="create-webhook-title">Create a webhook</h2>
      <WebhookFields state={state} onChange={setState} />
      {action.error !== null && <ErrorBox error={action.error} />}
      <button type="submit" className="primary" disabled={action.busy || !isWebhookFormValid(state)}>
        Create webhook
      </button>
    </form>
  );
}
