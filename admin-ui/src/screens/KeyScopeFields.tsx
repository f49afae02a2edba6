import { KeyOrganizationsDocument, KeyProjectsDocument } from '../api/generated/operations.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Checkbox, Select, TextField } from '../components/Fields.tsx';
import { Async } from '../components/Status.tsx';
import type { KeyInput } from './apiKeyQueries.ts';

export type ScopeState = {
  readonly name: string;
  /** '' = no organization restriction (personal keys only). */
  readonly organizationId: string;
  readonly projectIds: readonly string[];
  /** Comma-separated; '' = all. */
  readonly branches: string;
  readonly tables: string;
  readonly readOnly: boolean;
  readonly expiresInDays: string;
};

export const EMPTY_SCOPE: ScopeState = {
  name: '',
  organizationId: '',
  projectIds: [],
  branches: '',
  tables: '',
  readOnly: false,
  expiresInDays: '90',
};

function names(text: string): string[] | undefined {
  const values = text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return values.length > 0 ? values : undefined;
}

/** The create input of a key form (auth.md §8.3): empty scopes are omitted (= unrestricted). */
export function keyInputOf(state: ScopeState, now: Date): KeyInput {
  const days = Number(state.expiresInDays);
  const branchNames = names(state.branches);
  const tableIds = names(state.tables);
  return {
    name: state.name.trim(),
    readOnly: state.readOnly,
    ...(state.organizationId ? { organizationId: state.organizationId } : {}),
    ...(state.projectIds.length > 0 ? { projectIds: state.projectIds } : {}),
    ...(branchNames ? { branchNames } : {}),
    ...(tableIds ? { tableIds } : {}),
    ...(Number.isFinite(days) && days > 0 ? { expiresAt: new Date(now.getTime() + days * 86_400_000).toISOString() } : {}),
  };
}

type KeyScopeFieldsProps = {
  readonly state: ScopeState;
  readonly onChange: (state: ScopeState) => void;
  /** Service keys belong to one fixed organization. */
  readonly fixedOrganization?: string;
  readonly maxDays: number;
};

export function KeyScopeFields({ state, onChange, fixedOrganization, maxDays }: KeyScopeFieldsProps) {
  const set = (patch: Partial<ScopeState>): void => onChange({ ...state, ...patch });
  const organizationId = fixedOrganization ?? state.organizationId;
  const organizations = useOperation(
    queryKeys.organizations(),
    KeyOrganizationsDocument,
    { data: { first: 100 } },
    {
      enabled: fixedOrganization === undefined,
      select: (d) => d.myOrganizations.edges.map((e) => e.node.id),
    },
  );
  const projects = useOperation(
    queryKeys.organization(organizationId),
    KeyProjectsDocument,
    { data: { organizationId, first: 100 } },
    {
      enabled: organizationId !== '',
      select: (d) => d.projects.edges.map((e) => e.node),
    },
  );
  const dayOptions = [7, 30, 90, 180, 365, 730].filter((d) => d <= maxDays).map((d) => ({ value: String(d), label: `${d} days` }));
  return (
    <>
      <div className="form-row">
        <TextField label="Key name" value={state.name} onChange={(name) => set({ name })} required maxLength={255} />
        {!fixedOrganization && (
          <Async value={organizations} what="organizations">
            {(ids) => (
              <Select
                label="Organization scope"
                value={state.organizationId}
                onChange={(value) => set({ organizationId: value, projectIds: [] })}
                options={[{ value: '', label: 'Any of my organizations' }, ...ids.map((id) => ({ value: id, label: id }))]}
              />
            )}
          </Async>
        )}
        <Select label="Expires in" value={state.expiresInDays} onChange={(expiresInDays) => set({ expiresInDays })} options={dayOptions} />
      </div>
      {organizationId !== '' && (
        <fieldset className="project-scope">
          <legend>Projects (none selected = all projects)</legend>
          <Async value={projects} what="projects">
            {(list) =>
              list.length === 0 ? (
                <p className="hint">This organization has no projects.</p>
              ) : (
                list.map((project) => (
                  <Checkbox
                    key={project.id}
                    label={project.name}
                    checked={state.projectIds.includes(project.id)}
                    onChange={(checked) =>
                      set({ projectIds: checked ? [...state.projectIds, project.id] : state.projectIds.filter((id) => id !== project.id) })
                    }
                  />
                ))
              )
            }
          </Async>
        </fieldset>
      )}
      <div className="form-row">
        <TextField
          label="Branches"
          hint="Comma-separated names or $default; empty = all"
          value={state.branches}
          onChange={(branches) => set({ branches })}
        />
        <TextField label="Tables" hint="Comma-separated table ids; empty = all" value={state.tables} onChange={(tables) => set({ tables })} />
      </div>
      <Checkbox label="Read-only (no writes of any kind)" checked={state.readOnly} onChange={(readOnly) => set({ readOnly })} />
    </>
  );
}
