import { Checkbox, TextField } from '../components/Fields.tsx';
import { WEBHOOK_EVENT_TYPES, type Webhook, type WebhookSettings } from './webhookQueries.ts';

/** What the create and edit forms hold; empty project/branches mean "all". */
export type WebhookFormState = {
  readonly url: string;
  readonly description: string;
  readonly projectName: string;
  readonly branchNames: string;
  readonly types: readonly string[];
};

export const EMPTY_WEBHOOK_FORM: WebhookFormState = { url: '', description: '', projectName: '', branchNames: '', types: ['revision.committed'] };

export function webhookFormOf(webhook: Webhook): WebhookFormState {
  return {
    url: webhook.url,
    description: webhook.description ?? '',
    projectName: webhook.projectName ?? '',
    branchNames: (webhook.branchNames ?? []).join(', '),
    types: webhook.types,
  };
}

/** The settings the API takes: blank filters become null (every project, every branch). */
export function webhookSettingsOf(state: WebhookFormState): WebhookSettings {
  const branches = state.branchNames
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return {
    url: state.url.trim(),
    types: WEBHOOK_EVENT_TYPES.filter((type) => state.types.includes(type)),
    projectName: state.projectName.trim() || null,
    branchNames: branches.length === 0 ? null : branches,
    description: state.description.trim() || null,
  };
}

export function isWebhookFormValid(state: WebhookFormState): boolean {
  return state.url.trim() !== '' && state.types.length > 0;
}

/** URL, description, project/branch filters and event types of a webhook (changes.md §6.1, §6.3). */
export function WebhookFields({ state, onChange }: { readonly state: WebhookFormState; readonly onChange: (state: WebhookFormState) => void }) {
  const set = (patch: Partial<WebhookFormState>): void => onChange({ ...state, ...patch });
  const toggle = (type: string, on: boolean): void => set({ types: on ? [...state.types, type] : state.types.filter((t) => t !== type) });
  return (
    <>
      <TextField
        label="Payload URL"
        type="url"
        value={state.url}
        onChange={(url) => set({ url })}
        className="url-input"
        required
        maxLength={2000}
        placeholder="https://example.com/hooks/strata"
      />
      <TextField label="Description" value={state.description} onChange={(description) => set({ description })} maxLength={500} />
      <div className="form-row">
        <TextField
          label="Project"
          value={state.projectName}
          onChange={(projectName) => set({ projectName })}
          hint="Blank: every project of the organization."
          maxLength={64}
        />
        <TextField
          label="Branches"
          value={state.branchNames}
          onChange={(branchNames) => set({ branchNames })}
          hint="Comma-separated names or $default; blank: every branch."
        />
      </div>
      <fieldset className="choices">
        <legend>Event types</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox key={type} label={<code>{type}</code>} checked={state.types.includes(type)} onChange={(on) => toggle(type, on)} />
        ))}
        {state.types.length === 0 && <span className="field-error">Choose at least one event type.</span>}
      </fieldset>
    </>
  );
}
