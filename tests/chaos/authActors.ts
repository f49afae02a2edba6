// Authentication state under faults: API keys used on every replica right after create/rotate/revoke, refresh
// tokens rotated with duplicates sent to two replicas at once, MCP sessions opened on one replica and used on others.
import { ADMIN_PASSWORD, API_MEMBERS, type MemberName } from './cluster.ts';
import { isOk, isUnknown, setCookies, type Reply } from './client.ts';
import { positionOf, sleep, type ChaosContext } from './context.ts';
import type { Random } from './random.ts';

/** Uses `secret` on every API process that is up; `accepted` says whether it must work. */
async function checkKey(ctx: ChaosContext, secret: string, accepted: boolean, what: string, via: Reply): Promise<void> {
  for (const target of API_MEMBERS) {
    if (!ctx.cluster.isUp(target)) continue;
    const use = (): Promise<Reply> => ctx.client.call(target, 'GET', '/api/me', { headers: { 'x-api-key': secret } });
    const reply = await use();
    if (reply.status === 0 || reply.status === 503) continue;
    ctx.recorder.count(accepted ? 'checks:key-accepted-on-replica' : `checks:${what}-key-refused-on-replica`);
    if ((accepted && reply.status !== 200) || (!accepted && reply.status !== 401)) {
      const again = await use(); // tells a moment of staleness from a lasting fault
      const member = ctx.cluster.member(target);
      ctx.recorder.violation(
        accepted ? 'keys-work-on-every-replica-at-once' : 'revoked-keys-fail-on-every-replica',
        `${what} key (written on ${via.target} at ${positionOf(via) ?? '?'}) on ${target} (up ${Date.now() - member.startedAt} ms, ` +
          `incarnation ${member.incarnation}): ${reply.status} ${JSON.stringify(reply.body)}; again: ${again.status}`,
      );
    }
  }
}

export async function runKeyActor(ctx: ChaosContext, random: Random): Promise<void> {
  for (let i = 0; ctx.running(); i++) {
    const created = await ctx.client.call(ctx.client.pick(random), 'POST', '/api/api-keys/personal', {
      headers: ctx.auth,
      body: { name: `chaos-${i}` },
    });
    if (!isOk(created)) {
      if (!isUnknown(created)) ctx.recorder.violation('valid-writes-succeed', `create key: ${created.status} ${JSON.stringify(created.body)}`);
      await sleep(ctx.pauseMs * 4);
      continue;
    }
    ctx.recorder.count('keys:created');
    let { secret } = created.body as { secret: string };
    let id = created.body.apiKey.id as string;
    await checkKey(ctx, secret, true, 'created', created);
    if (random.next() < 0.5) {
      const rotated = await ctx.client.call(ctx.client.pick(random), 'POST', `/api/api-key/${id}/rotate`, { headers: ctx.auth });
      if (isOk(rotated)) {
        ctx.recorder.count('keys:rotated');
        await checkKey(ctx, rotated.body.secret, true, 'rotated-new', rotated);
        await checkKey(ctx, secret, false, 'rotated-old', rotated);
        secret = rotated.body.secret;
        id = rotated.body.apiKey.id;
      } else if (!isUnknown(rotated)) ctx.recorder.violation('valid-writes-succeed', `rotate key: ${rotated.status}`);
    }
    // A revoke retried after an unknown outcome may find the key already revoked (a 4xx then is fine).
    let revoked: Reply | null = null;
    let retried = false;
    for (let attempt = 0; attempt < 20; attempt++) {
      revoked = await ctx.client.call(ctx.client.pick(random), 'POST', `/api/api-key/${id}/revoke`, { headers: ctx.auth });
      if (!isUnknown(revoked)) break;
      retried = true;
      await sleep(1000);
    }
    if (revoked && (isOk(revoked) || (retried && !isUnknown(revoked)))) {
      ctx.recorder.count('keys:revoked');
      await checkKey(ctx, secret, false, 'revoked', revoked);
    } else if (revoked && !isUnknown(revoked)) ctx.recorder.violation('valid-writes-succeed', `revoke key: ${revoked.status}`);
    await sleep(ctx.pauseMs * 2);
  }
}

export async function runRefreshActor(ctx: ChaosContext, random: Random): Promise<void> {
  let token: string | null = null;
  let since = 0;
  let rotations = 0;
  while (ctx.running()) {
    if (token === null || rotations >= 20) {
      if (token !== null) await ctx.client.call(ctx.client.pick(random), 'POST', '/api/auth/logout', { headers: { cookie: `svc_rt=${token}` } });
      const login = await ctx.client.call(ctx.client.pick(random), 'POST', '/api/auth/login', {
        body: { username: 'admin', password: ADMIN_PASSWORD },
      });
      token = isOk(login) ? (setCookies(login).get('svc_rt') ?? null) : null;
      since = Date.now();
      rotations = 0;
      if (token === null) {
        await sleep(1000);
        continue;
      }
      ctx.recorder.count('refresh:families');
    }
    const a = ctx.client.pick(random);
    const b = ctx.client.pick(random, a);
    const replies = await Promise.all(
      [a, b].map((target) => ctx.client.call(target, 'POST', '/api/auth/refresh', { headers: { cookie: `svc_rt=${token}` } })),
    );
    const successors = new Set(replies.filter(isOk).map((r) => setCookies(r).get('svc_rt')));
    for (const reply of replies) {
      if (reply.status === 401)
        ctx.recorder.violation(
          'no-refresh-family-forks',
          `duplicate refresh on ${reply.target} within the grace period: ${JSON.stringify(reply.body)}`,
        );
      if (reply.status === 409) ctx.recorder.count('refresh:409-in-progress');
    }
    if (successors.size > 1) ctx.recorder.violation('no-refresh-family-forks', `two replicas rotated one token into different successors`);
    const successor = [...successors][0];
    if (successor) {
      ctx.recorder.count('refresh:rotations');
      const access = setCookies(replies.find(isOk)!).get('svc_at');
      const me = await ctx.client.call(ctx.client.pick(random), 'GET', '/api/me', { headers: { cookie: `svc_at=${access}` } });
      if (me.status !== 200 && me.status !== 503 && me.status !== 0)
        ctx.recorder.violation('refreshed-access-token-works', `GET /api/me with a refreshed token: ${me.status}`);
      token = successor;
      since = Date.now();
      rotations++;
    } else if (replies.some((r) => r.status === 401) || Date.now() - since > 20_000) {
      token = null; // start a new family: this one is dead or its grace period may be over
    }
    await sleep(ctx.pauseMs * 2);
  }
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'chaos', version: '1.0.0' } },
};
const ME = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'me', arguments: {} } };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/**
 * MCP sessions: the record is shared through Redis but the live session stays on the command process that opened it,
 * so requests keep affinity (operations.md §2), as an edge proxy would: the owner itself or the query-only process,
 * which forwards /mcp to cmdA. A session is lost (404) only when its owner restarted or Redis lost its record.
 */
export async function runMcpActor(ctx: ChaosContext, random: Random): Promise<void> {
  const faultsSeen = (): number => (ctx.recorder.counts.get('faults:redis-restart') ?? 0) + (ctx.recorder.counts.get('faults:kill') ?? 0);
  while (ctx.running()) {
    const faultsBefore = faultsSeen();
    const opened: MemberName = ctx.client.pick(random);
    const owner: MemberName = opened === 'query' ? 'cmdA' : opened;
    const incarnation = ctx.cluster.member(owner).incarnation;
    const init = await ctx.client.call(opened, 'POST', '/mcp', { headers: { ...ctx.auth, ...MCP_HEADERS }, body: INIT });
    const session = init.headers.get('mcp-session-id');
    if (init.status !== 200 || !session) {
      if (!isUnknown(init)) ctx.recorder.violation('mcp-sessions-work', `initialize on ${opened}: ${init.status} ${JSON.stringify(init.body)}`);
      await sleep(1000);
      continue;
    }
    ctx.recorder.count('mcp:sessions');
    const headers = { ...ctx.auth, ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    await ctx.client.call(opened, 'POST', '/mcp', { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    const affine: MemberName[] = owner === 'cmdA' ? ['cmdA', 'query'] : [owner];
    for (let i = 0; i < 3 && ctx.running(); i++) {
      const target = random.pick(affine);
      const reply = await ctx.client.call(target, 'POST', '/mcp', { headers, body: ME, write: false });
      if (isUnknown(reply)) continue;
      if (reply.status === 404 && (faultsSeen() > faultsBefore || ctx.cluster.member(owner).incarnation !== incarnation)) {
        ctx.recorder.count('mcp:sessions-lost-with-their-process-or-redis');
        break;
      }
      ctx.recorder.count('checks:mcp-call-with-affinity');
      if (reply.status !== 200 || reply.body?.result === undefined || reply.body.result.isError) {
        ctx.recorder.violation(
          'mcp-sessions-work',
          `session from ${opened} used on ${target}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`,
        );
      }
      await sleep(ctx.pauseMs);
    }
    await ctx.client.call(random.pick(affine), 'DELETE', '/mcp', { headers });
    await sleep(ctx.pauseMs * 2);
  }
}
