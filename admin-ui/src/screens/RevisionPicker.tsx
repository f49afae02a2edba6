import { useId } from 'react';
import { RevisionsDocument } from '../api/generated/operations.ts';
import type { Branch, RevisionSummary } from '../api/types.ts';
import { useOperation } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { Select } from '../components/Fields.tsx';
import { ErrorBox } from '../components/Status.tsx';

/** The newest revisions of a branch offered in the list; an older one can still be compared by its link. */
const REVISIONS_SHOWN = 100;

/** A revision of the project, named with the branch it was picked from. */
export type RevisionChoice = { readonly branch: string; readonly revisionId: string };

export function revisionOptionLabel(revision: RevisionSummary): string {
  if (revision.isDraft) return revision.hasChanges ? 'Draft (uncommitted changes)' : 'Draft (no changes)';
  const when = new Date(revision.committedAt ?? revision.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const tags = [revision.isHead ? 'HEAD' : '', revision.isStart ? 'start' : ''].filter(Boolean).join(', ');
  return `#${revision.sequence}${tags ? ` (${tags})` : ''} · ${revision.comment || 'no comment'} · ${when}`;
}

type RevisionPickerProps = {
  readonly legend: string;
  /** Makes the controls' accessible names unique when two pickers share a screen: "(before)". */
  readonly labelContext: string;
  readonly org: string;
  readonly project: string;
  readonly branches: readonly Branch[];
  readonly value: RevisionChoice;
  readonly onChange: (value: RevisionChoice) => void;
};

/** Picks a branch, then one of its revisions (newest first, the draft on top); a new branch starts at its HEAD. */
export function RevisionPicker({ legend, labelContext, org, project, branches, value, onChange }: RevisionPickerProps) {
  const legendId = useId();
  const revisions = useOperation(
    queryKeys.project(org, project),
    RevisionsDocument,
    { data: { organizationId: org, projectName: project, branchName: value.branch, first: REVISIONS_SHOWN } },
    { enabled: value.branch !== '', select: (d) => d.revisions.edges.map((edge) => edge.node) },
  );
  const list = revisions.status === 'success' ? revisions.data : [];
  const options = list.map((revision) => ({ value: revision.id, label: revisionOptionLabel(revision) }));
  // A revision named by the link but not among the newest ones stays selectable by its id.
  if (value.revisionId && revisions.status === 'success' && !list.some((revision) => revision.id === value.revisionId)) {
    options.push({ value: value.revisionId, label: `Revision ${value.revisionId}` });
  }
  const pickBranch = (name: string): void => {
    const branch = branches.find((b) => b.name === name);
    onChange({ branch: name, revisionId: branch?.headRevisionId ?? '' });
  };
  return (
    <fieldset className="revision-picker" aria-labelledby={legendId}>
      <legend id={legendId}>{legend}</legend>
      <Select
        label="Branch"
        labelContext={labelContext}
        value={value.branch}
        onChange={pickBranch}
        options={branches.map((b) => ({ value: b.name, label: b.name }))}
      />
      <Select
        label="Revision"
        labelContext={labelContext}
        value={value.revisionId}
        onChange={(revisionId) => onChange({ ...value, revisionId })}
        options={
          revisions.status === 'pending'
            ? [{ value: value.revisionId, label: value.branch === '' ? 'Pick a branch' : 'Loading revisions…' }]
            : options
        }
        disabled={revisions.status !== 'success'}
      />
      {revisions.status === 'error' && <ErrorBox error={revisions.error} onRetry={() => void revisions.refetch()} />}
    </fieldset>
  );
}
