import { useEffect } from 'react';
import { useInvalidate, useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';
import { useAction } from '../app/useAction.ts';
import { PagedTable } from '../components/PagedTable.tsx';
import { useCursorPager } from '../components/Pager.tsx';
import { Async, ErrorBox } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';
import { listDeliveries, redeliver, type WebhookAttempt, type WebhookDelivery } from './webhookQueries.ts';

const PAGE_SIZE = 20;
/** While a shown delivery is pending, the log reloads this often. */
const POLL_MS = 1500;

function outcomeOf(attempt: WebhookAttempt | undefined): string {
  if (!attempt) return 'not tried yet';
  const status = attempt.responseStatus === null ? null : String(attempt.responseStatus);
  if (!attempt.error || (status !== null && attempt.error.includes(status))) return status ?? '—';
  return status === null ? attempt.error : `${status} · ${attempt.error}`;
}

/** A webhook's deliveries, newest first, with their attempts; redeliver for finished ones (changes.md §6.2). */
export function WebhookDeliveries({ webhookId }: { readonly webhookId: string }) {
  const api = useApi();
  const invalidate = useInvalidate();
  const action = useAction();
  const pager = useCursorPager();
  const deliveries = useLoaded([...queryKeys.webhook(webhookId), 'deliveries', pager.after ?? null], () =>
    listDeliveries(api, webhookId, PAGE_SIZE, pager.after),
  );
  const pending = deliveries.status === 'success' && deliveries.data.edges.some(({ node }) => node.status === 'pending');
  const reload = (): void => void deliveries.refetch();
  // While a delivery is pending its outcome is read again every POLL_MS.
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void deliveries.refetch(), POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries.dataUpdatedAt]);

  const again = async (delivery: WebhookDelivery): Promise<void> => {
    const queued = await action.run(() => redeliver(api, delivery.id));
    if (queued) await invalidate(queryKeys.webhook(webhookId));
  };

  return (
    <section aria-labelledby="deliveries-title">
      <div className="page-title">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      {action.error !== null && <ErrorBox error={action.error} />}
      <Async value={deliveries} what="deliveries">
        {(connection) => (
          <PagedTable
            connection={connection}
            empty="No deliveries yet. Press Ping to send a test event."
            caption="Deliveries"
            scrollLabel="Deliveries, scrollable"
            head={
              <>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last response</th>
                <th scope="col">Duration</th>
                <th scope="col">Created</th>
                <th scope="col">Next attempt</th>
                <th scope="col">Actions</th>
              </>
            }
            rowProps={(node) => ({ 'data-delivery': node.id, 'data-status': node.status })}
            row={(node) => <DeliveryCells delivery={node} busy={action.busy} onRedeliver={again} />}
            pager={pager}
            pageSize={PAGE_SIZE}
            noun="deliveries"
          />
        )}
      </Async>
    </section>
  );
}

type DeliveryRowProps = {
  readonly delivery: WebhookDelivery;
  readonly busy: boolean;
  readonly onRedeliver: (delivery: WebhookDelivery) => Promise<void>;
};

/** The cells of one delivery's row. */
function DeliveryCells({ delivery, busy, onRedeliver }: DeliveryRowProps) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <>
      <th scope="row">
        <code>{delivery.type}</code>
        <div className="meta break">
          <code>{delivery.id}</code>
        </div>
      </th>
      <td>
        <span className={`status status-${delivery.status === 'succeeded' ? 'active' : delivery.status === 'failed' ? 'failed' : 'building'}`}>
          {delivery.status}
        </span>
      </td>
      <td>
        <Attempts attempts={delivery.attempts} />
      </td>
      <td>{outcomeOf(last)}</td>
      <td>{last ? `${last.durationMs} ms` : '—'}</td>
      <td>
        <Time value={delivery.createdAt} />
        {last && (
          <div className="meta">
            last try <Time value={last.at} />
          </div>
        )}
      </td>
      <td>
        <Time value={delivery.nextAttemptAt} />
      </td>
      <td>
        {delivery.status !== 'pending' && (
          <button type="button" disabled={busy} onClick={() => void onRedeliver(delivery)} aria-label={`Redeliver ${delivery.id}`}>
            Redeliver
          </button>
        )}
      </td>
    </>
  );
}

/** The attempt count, opening to every kept attempt with its time, response code, duration and error. */
function Attempts({ attempts }: { readonly attempts: readonly WebhookAttempt[] }) {
  if (attempts.length === 0) return <>0</>;
  return (
    <details className="attempts">
      <summary>{attempts.length}</summary>
      <ol>
        {attempts.map((attempt, index) => (
          <li key={index}>
            <Time value={attempt.at} /> · {outcomeOf(attempt)} · {attempt.durationMs} ms
          </li>
        ))}
      </ol>
    </details>
  );
}
