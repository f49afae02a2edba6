import type { ApiClient } from '../api/client.ts';
import type { RowVersion } from '../api/changeTypes.ts';
import { MembersDocument, RevisionSequenceDocument, RowHistoryDocument } from '../api/generated/operations.ts';
import type { Connection } from '../api/types.ts';

const MEMBERS_SHOWN = 100;

export type HistoryPage = {
  readonly versions: Connection<RowVersion>;
  /** Revision number by revision id (missing where it could not be read). */
  readonly sequences: ReadonlyMap<string, number>;
  /** Username by user id: the organization's members and the signed-in user; other actors show by id. */
  readonly actors: ReadonlyMap<string, string>;
};

type HistoryArgs = {
  readonly org: string;
  readonly revisionId: string;
  readonly tableId: string;
  readonly rowId: string;
  readonly first: number;
  readonly after: string | undefined;
};

/**
 * One page of a row's history (`rowHistory`) with what makes it readable: the revision numbers of its entries
 * (one batched request) and the actors' usernames. Both extras are best effort: without them ids are shown.
 */
export async function loadHistoryPage(api: ApiClient, me: { id: string; username: string }, args: HistoryArgs): Promise<HistoryPage> {
  const { org, revisionId, tableId, rowId, first, after } = args;
  const { rowHistory } = await api.request(RowHistoryDocument, { data: { revisionId, tableId, rowId, first, after: after ?? null } });
  const ids = [...new Set(rowHistory.edges.map((edge) => edge.node.revisionId))];
  const [sequences, actors] = await Promise.all([sequencesOf(api, ids), actorsOf(api, org)]);
  actors.set(me.id, me.username);
  return { versions: rowHistory, sequences, actors };
}

async function sequencesOf(api: ApiClient, revisionIds: readonly string[]): Promise<Map<string, number>> {
  try {
    const answers = await api.batch(
      RevisionSequenceDocument,
      revisionIds.map((revisionId) => ({ data: { revisionId } })),
    );
    return new Map(answers.map(({ revision }) => [revision.id, revision.sequence]));
  } catch {
    return new Map();
  }
}

async function actorsOf(api: ApiClient, org: string): Promise<Map<string, string>> {
  try {
    const { usersOrganization } = await api.request(MembersDocument, { data: { organizationId: org, first: MEMBERS_SHOWN } });
    return new Map(usersOrganization.edges.map(({ node }) => [node.user.id, node.user.username]));
  } catch {
    return new Map();
  }
}
