import { BRANCH_FIELDS, REVISION_FIELDS } from '../api/fragments.ts';
import type { ApiClient } from '../api/client.ts';
import type { Branch, RevisionSummary } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';

const BRANCH = `query Branch($data: GetBranchInput!) { branch(data: $data) { ${BRANCH_FIELDS} } }`;
const REVISION = `query Revision($data: GetRevisionInput!) { revision(data: $data) { ${REVISION_FIELDS} } }`;

/** Where a revision screen is: `rev` of the URL is `draft`, `head` or a revision id. */
export type RevisionAddress = { readonly org: string; readonly project: string; readonly branch: string; readonly rev: string };

export type RevisionContext = {
  readonly branch: Branch;
  readonly revision: RevisionSummary;
  /** Writable: the branch's current draft. HEAD and historic revisions are read-only. */
  readonly editable: boolean;
};

export function addressOf(params: Readonly<Record<string, string>>): RevisionAddress {
  return { org: params.org ?? '', project: params.project ?? '', branch: params.branch ?? '', rev: params.rev ?? 'draft' };
}

export function revisionPath(address: RevisionAddress, ...rest: string[]): string {
  return pathOf('org', address.org, 'project', address.project, 'branch', address.branch, address.rev, ...rest);
}

/** The URL segment naming a revision of this branch: `draft`/`head` while it is one, else its id. */
export function revSegment(branch: Branch, revision: RevisionSummary): string {
  if (revision.id === branch.draftRevisionId) return 'draft';
  if (revision.id === branch.headRevisionId) return 'head';
  return revision.id;
}

export async function loadRevisionContext(api: ApiClient, address: RevisionAddress): Promise<RevisionContext> {
  const { branch } = await api.graphql<{ branch: Branch }>(BRANCH, {
    data: { organizationId: address.org, projectName: address.project, branchName: address.branch },
  });
  let revision: RevisionSummary;
  if (address.rev === 'draft') revision = branch.draft;
  else if (address.rev === 'head') revision = branch.head;
  else revision = (await api.graphql<{ revision: RevisionSummary }>(REVISION, { data: { revisionId: address.rev } })).revision;
  return { branch, revision, editable: revision.isDraft && revision.id === branch.draftRevisionId };
}
