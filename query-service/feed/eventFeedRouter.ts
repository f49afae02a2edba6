import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { AppError, assertCanRead, assertProjectScope, findProjectByName, projectTarget, sharedPerTurn, toErrorBody } from '../../contracts/index.ts';
import type { Authenticator, ChangeEventSource, EventStore, Position, Principal, SystemStateSource } from '../../contracts/index.ts';
import { authenticate, presentedCredentials, requestContextOf } from '../http/authenticate.ts';
import { sendError } from '../http/sendError.ts';
import { parseFeedQuery, visiblePayload, type FeedRequest } from './feedFilter.ts';

export type ChangeFeedDeps = {
  /** The log the feed replays and follows. */
  readonly eventLog: Pick<EventStore, 'readAll' | 'headPosition' | 'onAppended'>;
  readonly changeEvents: ChangeEventSource;
  /** EVENT_STREAMS_PER_PRINCIPAL. */
  readonly streamsPerPrincipal: number;
  /** Comment line interval (changes.md §5: 15 s). */
  readonly keepAliveMs?: number;
  /** How often a stream re-checks its credential (revocation, expiry). */
  readonly recheckMs?: number;
  /** `strata_event_streams_active`. */
  readonly onActiveStreams?: (count: number) => void;
};

const BATCH = 500;

/** The principal's budget key: a user with all of its credentials together, or a service key. */
function principalKey(principal: Principal): string {
  return principal.kind === 'user' ? `user:${principal.userId}` : principal.kind === 'service' ? `key:${principal.keyId}` : 'anonymous';
}

/**
 * The change feed of changes.md §5: `GET /api/organization/{org}/project/{project}/events` streams the project's
 * change events as Server-Sent Events, replaying from the log after `Last-Event-ID`/`?after=` and then following
 * appends. The stream ends with `event: error` when its credential stops authenticating, and at shutdown (`close`).
 * The per-principal limit counts the streams of this process.
 */
export function createChangeFeed(
  deps: ChangeFeedDeps & { readonly authenticator: Authenticator; readonly systemState: SystemStateSource; readonly log: Logger },
) {
  const { eventLog, changeEvents, systemState, authenticator } = deps;
  const open = new Map<string, number>();
  const endings = new Set<() => void>();
  const report = (): void => deps.onActiveStreams?.(endings.size);
  // Log reads after a cursor, shared by the streams that read from the same cursor in the same macrotask: an append
  // wakes every stream that follows the head in one notification, and all of them ask for the same events; a stream
  // woken by a later append never gets the answer from before it (sharedPerTurn).
  const readAfter = sharedPerTurn((after: Position | null) => eventLog.readAll(after, { categories: changeEvents.categories, maxCount: BATCH }));

  async function stream(req: Request, res: Response): Promise<void> {
    const { principal } = requestContextOf(res);
    const state = await systemState.current();
    if (principal.kind === 'anonymous') throw new AppError('UNAUTHENTICATED', 'Authentication required');
    const project = findProjectByName(state, String(req.params.organizationId), String(req.params.projectName));
    if (!project) throw new AppError('PROJECT_NOT_FOUND', `Project "${String(req.params.projectName)}" not found`);
    assertProjectScope(principal, project);
    assertCanRead(state, principal, 'Project', projectTarget(project));
    const url = req.originalUrl;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const request: FeedRequest = { projectId: project.id, ...parseFeedQuery(query, req.get('last-event-id') ?? null) };
    const key = principalKey(principal);
    if ((open.get(key) ?? 0) >= deps.streamsPerPrincipal) {
      throw new AppError('RATE_LIMITED', `At most ${deps.streamsPerPrincipal} change-feed streams may be open per principal`);
    }
    const credentials = presentedCredentials(req);
    open.set(key, (open.get(key) ?? 0) + 1);

    let cursor: Position | null = request.after ?? (await eventLog.headPosition());
    let ended = false;
    let wake: (() => void) | null = null;
    const nudge = (): void => {
      wake?.();
      wake = null;
    };
    const end = (): void => {
      if (ended) return;
      ended = true;
      nudge();
    };
    endings.add(end);
    report();
    const stopAppended = eventLog.onAppended(nudge);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), deps.keepAliveMs ?? 15_000);
    const recheck = setInterval(() => {
      authenticator.authenticate(credentials).then(
        () => undefined,
        (err: unknown) => {
          if (ended) return;
          res.write(`event: error\ndata: ${JSON.stringify(toErrorBody(err))}\n\n`);
          end();
        },
      );
    }, deps.recheckMs ?? 1000);
    req.on('close', end);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(': connected\n\n');
    try {
      while (!ended) {
        const events = await readAfter(cursor);
        if (events.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(nudge, 1000);
          });
          continue;
        }
        const described = await changeEvents.describe(events);
        const now = await systemState.current();
        for (const event of described) {
          if (ended) break;
          const payload = visiblePayload(event, request, principal, now);
          if (payload !== null) res.write(`id: ${payload.position}\nevent: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`);
        }
        cursor = events.at(-1)?.position ?? cursor;
      }
    } catch (err) {
      deps.log.warn({ err }, 'change feed stream failed');
      res.write(`event: error\ndata: ${JSON.stringify(toErrorBody(err))}\n\n`);
    } finally {
      clearInterval(keepAlive);
      clearInterval(recheck);
      stopAppended();
      endings.delete(end);
      open.set(key, (open.get(key) ?? 1) - 1);
      report();
      res.end();
    }
  }

  const router: Router = express.Router();
  router.get('/organization/:organizationId/project/:projectName/events', authenticate(authenticator), (req, res) => {
    stream(req, res).catch((err: unknown) => {
      if (res.headersSent) res.end();
      else sendError(res, err);
    });
  });
  return {
    router,
    /** Ends every open stream (shutdown), so the HTTP server can close. */
    close(): void {
      for (const end of [...endings]) end();
    },
  };
}
