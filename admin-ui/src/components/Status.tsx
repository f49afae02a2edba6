import type { ReactNode } from 'react';
import { errorMessage } from '../api/errorMessages.ts';
import type { Loadable } from '../app/queries.ts';

export function Loading({ what }: { readonly what?: string }) {
  return (
    <p className="status" role="status">
      Loading{what ? ` ${what}` : ''}…
    </p>
  );
}

/** A failure as a readable sentence (never a stack or a JSON dump), with an optional retry. */
export function ErrorBox({ error, onRetry }: { readonly error: unknown; readonly onRetry?: () => void }) {
  return (
    <div className="error-box" role="alert">
      <p>{errorMessage(error)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { readonly children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** Loading, error (with Retry when the value can be read again), or the content of a loaded value. */
export function Async<T>({
  value,
  what,
  onRetry,
  children,
}: {
  readonly value: Loadable<T>;
  readonly what?: string;
  readonly onRetry?: () => void;
  readonly children: (data: T) => ReactNode;
}) {
  if (value.status === 'pending') return <Loading {...(what ? { what } : {})} />;
  const retry = onRetry ?? (value.refetch ? () => void value.refetch?.() : undefined);
  if (value.status === 'error') return <ErrorBox error={value.error} {...(retry ? { onRetry: retry } : {})} />;
  return <>{children(value.data as T)}</>;
}

/** The outcome of a form submission, announced to screen readers. */
export function Notice({ kind, children }: { readonly kind: 'success' | 'error'; readonly children: ReactNode }) {
  return (
    <p className={kind === 'error' ? 'notice notice-error' : 'notice notice-success'} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}
