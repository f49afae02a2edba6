import type { ApiKey, PermissionRule } from '../api/types.ts';
import { ConfirmButton } from '../components/ConfirmButton.tsx';
import { GridTable } from '../components/GridTable.tsx';
import { Empty } from '../components/Status.tsx';
import { Time } from '../components/Time.tsx';

function list(values: readonly string[] | null, all: string): string {
  return values === null ? all : values.join(', ');
}

function ruleText(rule: PermissionRule): string {
  const words = (v: string | string[]): string => (Array.isArray(v) ? v.join('/') : v);
  return `${rule.inverted ? 'deny' : 'allow'} ${words(rule.action)} on ${words(rule.subject)}`;
}

type KeyTableProps = {
  readonly keys: readonly ApiKey[];
  readonly busy: boolean;
  readonly onRotate: (key: ApiKey) => Promise<void>;
  readonly onRevoke: (key: ApiKey) => Promise<void>;
};

/** Keys with their scopes and state; active keys can be rotated or revoked (both ask first). */
export function KeyTable({ keys, busy, onRotate, onRevoke }: KeyTableProps) {
  if (keys.length === 0) return <Empty>No API keys.</Empty>;
  return (
    <GridTable
      items={keys}
      rowKey={(key) => key.id}
      caption="API keys"
      className="keys"
      scrollLabel="API keys, scrollable"
      head={
        <>
          <th scope="col">Name</th>
          <th scope="col">Prefix</th>
          <th scope="col">Scopes</th>
          <th scope="col">Access</th>
          <th scope="col">Expires</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
          <th scope="col">Actions</th>
        </>
      }
      row={(key) => (
        <>
          <td>{key.name}</td>
          <td>
            <code>{key.prefix}</code>
          </td>
          <td className="scopes">
            <span>org: {key.organizationId ?? 'any'}</span>
            <span>projects: {list(key.projectIds, 'all')}</span>
            <span>branches: {list(key.branchNames, 'all')}</span>
            <span>tables: {list(key.tableIds, 'all')}</span>
            {key.permissions && <span>rules: {key.permissions.rules.map(ruleText).join('; ')}</span>}
          </td>
          <td>{key.readOnly ? 'read-only' : 'read/write'}</td>
          <td>
            <Time value={key.expiresAt} />
          </td>
          <td>
            <Time value={key.lastUsedAt} empty="never" />
          </td>
          <td>
            <span className={`status status-${key.status}`}>{key.status}</span>
          </td>
          <td>
            <div className="actions">
              {key.status === 'active' && (
                <>
                  <ConfirmButton
                    label="Rotate"
                    labelContext={`${key.name} (${key.prefix})`}
                    title={`Rotate “${key.name}”?`}
                    confirmLabel="Rotate key"
                    disabled={busy}
                    onConfirm={() => onRotate(key)}
                  >
                    <p>A new secret is created and the current one stops working immediately.</p>
                  </ConfirmButton>
                  <ConfirmButton
                    label="Revoke"
                    labelContext={`${key.name} (${key.prefix})`}
                    title={`Revoke “${key.name}”?`}
                    confirmLabel="Revoke key"
                    danger
                    disabled={busy}
                    onConfirm={() => onRevoke(key)}
                  >
                    <p>Every request with this key fails from now on. This cannot be undone.</p>
                  </ConfirmButton>
                </>
              )}
            </div>
          </td>
        </>
      )}
    />
  );
}
