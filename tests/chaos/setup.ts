// The data the workload starts from: project `chaos` with table `items` on `master` (committed) and `side` (a branch
// of master's first HEAD), each with a REST endpoint serving its draft.
import { createHash } from 'node:crypto';
import type { BranchModel } from './branchModel.ts';
import type { Client } from './client.ts';
import { ADMIN_PASSWORD, type MemberName } from './cluster.ts';
import type { ChaosContext } from './context.ts';

export const PROJECT = 'chaos';
export const TABLE = 'items';
export const branchPath = (branch: string): string => `/api/organization/admin/project/${PROJECT}/branch/${branch}`;
const ITEM_SCHEMA = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number', default: 0 } } };

export type Listed = { id: string; n: unknown };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON replies
type SetupReply = { body: any; position: string };

async function must(
  client: Client,
  target: MemberName,
  method: string,
  path: string,
  auth: Record<string, string>,
  body?: unknown,
): Promise<SetupReply> {
  const reply = await client.call(target, method, path, { headers: auth, ...(body === undefined ? {} : { body }) });
  if (reply.status < 200 || reply.status >= 300) throw new Error(`setup: ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`);
  return { body: reply.body, position: reply.headers.get('x-strata-position') ?? '' };
}

export async function login(client: Client, target: MemberName): Promise<Record<string, string>> {
  const { body } = await must(client, target, 'POST', '/api/auth/login', {}, { username: 'admin', password: ADMIN_PASSWORD });
  return { authorization: `Bearer ${body.accessToken as string}` };
}

export async function setUpData(client: Client, auth: Record<string, string>): Promise<BranchModel[]> {
  const t: MemberName = 'cmdA';
  await must(client, t, 'POST', '/api/organization/admin/projects', auth, { projectName: PROJECT, branchName: 'master' });
  const master = (await must(client, t, 'GET', branchPath('master'), auth)).body;
  await must(client, t, 'POST', `/api/revision/${master.draftRevisionId}/tables`, auth, { tableId: TABLE, schema: ITEM_SCHEMA });
  await must(client, t, 'POST', `/api/revision/${master.draftRevisionId}/endpoints`, auth, { type: 'REST_API' });
  const commit = await must(client, t, 'POST', `${branchPath('master')}/revisions`, auth, { comment: 'chaos setup' });
  const side = await must(client, t, 'POST', `/api/revision/${commit.body.id}/branches`, auth, { branchName: 'side' });
  await must(client, t, 'POST', `/api/revision/${side.body.draftRevisionId}/endpoints`, auth, { type: 'REST_API' });
  const masterNow = await must(client, t, 'GET', branchPath('master'), auth);
  const sideNow = await must(client, t, 'GET', branchPath('side'), auth);
  return [masterNow, sideNow].map(({ body }) => ({
    name: body.name,
    draftId: body.draftRevisionId,
    headId: body.headRevisionId,
    draft: new Map(),
    head: new Map(),
    draftTables: new Map(),
    headTables: new Map(),
    touched: false,
    position: side.position,
  }));
}

const toListed = (edges: { node: { id: string; data: { n?: unknown } } }[]): Listed[] => edges.map(({ node }) => ({ id: node.id, n: node.data?.n }));

/** First page (200 rows) of a revision's items, read at `position`; null when the read failed (5xx, timeout). */
export async function readRowsPage(
  ctx: ChaosContext,
  target: MemberName,
  revisionId: string,
  position: string,
): Promise<{ rows: Listed[]; total: number } | null> {
  const reply = await ctx.client.call(target, 'GET', `/api/revision/${revisionId}/table/${TABLE}/rows?first=200`, {
    headers: { ...ctx.auth, 'x-strata-min-position': position },
  });
  if (reply.status !== 200) return null;
  return { rows: toListed(reply.body.edges), total: reply.body.totalCount };
}

export const rowsDigest = (page: { rows: Listed[]; total: number }): string => createHash('sha256').update(JSON.stringify(page)).digest('hex');

/** Every row of a revision's table, page by page (1000 per page), read at `position`. */
export async function readAllRows(ctx: ChaosContext, target: MemberName, revisionId: string, position: string, table = TABLE): Promise<Listed[]> {
  const rows: Listed[] = [];
  let after: string | null = null;
  for (;;) {
    const query: string = `first=1000${after === null ? '' : `&after=${encodeURIComponent(after)}`}`;
    const reply = await ctx.client.call(target, 'GET', `/api/revision/${revisionId}/table/${table}/rows?${query}`, {
      headers: { ...ctx.auth, 'x-strata-min-position': position },
    });
    if (reply.status !== 200) throw new Error(`reading rows of ${revisionId}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    rows.push(...toListed(reply.body.edges));
    if (!reply.body.pageInfo?.hasNextPage) return rows;
    after = reply.body.pageInfo.endCursor;
  }
}
