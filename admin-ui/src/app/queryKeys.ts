/**
 * Keys of the query cache, shaped like the data they hold so that a write invalidates a whole subtree by prefix
 * (TanStack Query matches `invalidateQueries({ queryKey })` by prefix). Every query of the app starts with one of
 * these; the README's "Data fetching" table says which write invalidates which.
 */
export const queryKeys = {
  /** The signed-in user. */
  me: () => ['me'] as const,
  /** Every user list and user search (the Users screen and the member picker). */
  users: () => ['users'] as const,
  /** The signed-in user's organizations (paged) and the organization choices of key forms. */
  organizations: () => ['organizations'] as const,
  /** One organization and everything listed on its screens: members, projects, service keys, webhooks. */
  organization: (org: string) => ['organization', org] as const,
  /** One project and everything addressed through it: branches, revision contexts, history, endpoints, changes. */
  project: (org: string, project: string) => ['project', org, project] as const,
  /** Content of one revision addressed by id: its tables, a table, rows, a row, row history, referenced rows. */
  revision: (revisionId: string) => ['revision', revisionId] as const,
  /** The prefix of every revision's content (a draft write changes what its revision id shows). */
  revisions: () => ['revision'] as const,
  /** The signed-in user's personal API keys. */
  apiKeys: () => ['apiKeys'] as const,
  /** The signed-in user's OAuth grants (connected apps). */
  oauthGrants: () => ['oauthGrants'] as const,
  /** Projection status rows (Operations). */
  projections: () => ['projections'] as const,
  /** One webhook and its deliveries. */
  webhook: (id: string) => ['webhook', id] as const,
  /** A fresh access token (Get token); never cached beyond its screen. */
  accessToken: () => ['accessToken'] as const,
};
