import type { UseQueryResult } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
import { BranchDocument, RevisionDocument } from '../api/generated/operations.ts';
import type { Branch, RevisionSummary } from '../api/types.ts';
import { pathOf } from '../app/navigation.ts';
import { useLoaded } from '../app/queries.ts';
import { queryKeys } from '../app/queryKeys.ts';
import { useApi } from '../app/session.tsx';

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
  const { branch } = await api.request(BranchDocument, {
    data: { organizationId: address.org, projectName: address.project, branchName: address.branch },
  });
  let revision: RevisionSummary;
  if (address.rev === 'draft') revision = branch.draft;
  else if (address.rev === 'head') revision = branch.head;
  else revision = (await api.request(RevisionDocument, { data: { revisionId: address.rev } })).revision;
  return { branch, revision, editable: revision.isDraft && revision.id === branch.draftRevisionId };
}

/** The cache key of what a revision screen loads besides its context: below the project, so project writes refresh it. */
export function revisionScreenKey(address: RevisionAddress, ...rest: readonly unknown[]): readonly unknown[] {
  return [...queryKeys.project(address.org, address.project), 'branch', address.branch, address.rev, ...rest];
}

/** The branch and revision a screen shows (a draft write, a commit or a revert of the project loads it again). */
export function useRevisionContext(address: RevisionAddress): UseQueryResult<RevisionContext> {
  const api = useApi();
  return useLoaded(revisionScreenKey(address, 'context'), () => loadRevisionContext(api, address));
}
