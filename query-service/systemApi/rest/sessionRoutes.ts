import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLInputObjectType } from 'graphql';
import { AppError, clearsSessionCookies, type Authenticator, type PresentedCredentials, type Sessions } from '../../../contracts/index.ts';
import { cookieValues, presentedCredentials, requestContextOf } from '../../http/authenticate.ts';
import { assertCsrf } from '../../http/csrfGate.ts';
import { sendJson } from '../../http/sendJson.ts';
import { ACCESS_TOKEN_COOKIE, refreshTokenOf, type SessionCookies } from '../../http/sessionCookies.ts';
import { finishWrite, type WriteConsistencyOptions } from '../../http/writeConsistency.ts';
import { routeInput } from './routeInput.ts';
import type { RestRoute, SessionActionName } from './systemRoutes.ts';

export type SessionRouteDeps = {
  readonly authenticator: Authenticator;
  /** Refresh, logout and logout-all; absent: those routes answer 503 SERVICE_UNAVAILABLE. */
  readonly sessions?: Sessions;
  readonly cookies: SessionCookies;
  readonly consistency: Omit<WriteConsistencyOptions, 'projections'>;
};

function sessionsOf(deps: SessionRouteDeps): Sessions {
  if (deps.sessions === undefined) throw new AppError('SERVICE_UNAVAILABLE', 'Sessions are not served by this process');
  return deps.sessions;
}

function correlation(res: Response): { readonly correlationId: string } {
  return { correlationId: res.locals.requestId ?? 'unknown' };
}

/** Logout only looks for a family in the credentials; a malformed `api_key` must not make it fail (auth.md §7.3). */
function credentialsForLogout(req: Request): PresentedCredentials {
  try {
    return presentedCredentials(req);
  } catch {
    return { authorization: null, apiKeyHeader: null, apiKeyQuery: null, accessTokenCookies: cookieValues(req.headers.cookie, ACCESS_TOKEN_COOKIE) };
  }
}

/**
 * `POST /api/auth/login` (auth.md §3): always CSRF-gated, ignores presented credentials; answers the access token
 * and sets the three session cookies.
 */
export function loginHandler(route: RestRoute, type: GraphQLInputObjectType | null, deps: SessionRouteDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    assertCsrf(req, res);
    const { username, password } = routeInput(req, route, type) as { username: string; password: string };
    const result = await deps.authenticator.login({ username, password, clientIp: req.ip ?? '' });
    deps.cookies.set(res, result);
    sendJson(res, 200, { accessToken: result.accessToken, expiresIn: result.expiresIn });
  };
}

/**
 * The session routes (auth.md §7, §11). Refresh reads only `svc_rt`: success sets the three cookies, a refused token
 * clears them, REFRESH_IN_PROGRESS and 503 touch none. Logout always clears and answers 204. Logout-all needs a
 * user JWT. Refresh, logout and logout-all are CSRF-gated whatever the credential; a failed gate changes nothing.
 */
export function sessionHandler(name: SessionActionName, deps: SessionRouteDeps): RequestHandler {
  switch (name) {
    case 'refresh':
      return async (req, res) => {
        assertCsrf(req, res);
        const sessions = sessionsOf(deps);
        let result;
        try {
          result = await sessions.refresh(refreshTokenOf(req), correlation(res));
        } catch (err) {
          if (clearsSessionCookies(err)) deps.cookies.clear(res);
          throw err;
        }
        deps.cookies.set(res, result);
        sendJson(res, 200, { expiresIn: result.expiresIn });
      };
    case 'logout':
      return async (req, res) => {
        assertCsrf(req, res);
        await deps.sessions?.logout({ refreshToken: refreshTokenOf(req), credentials: credentialsForLogout(req) }, correlation(res));
        deps.cookies.clear(res);
        res.status(204).end();
      };
    case 'logoutAll':
      return async (req, res) => {
        assertCsrf(req, res);
        const { position } = await sessionsOf(deps).logoutAll(requestContextOf(res).principal, correlation(res));
        // Authentication state is not projected (operations.md §4.4): nothing to wait for.
        await finishWrite(res, position, { ...deps.consistency, projections: [] });
        deps.cookies.clear(res);
        res.status(204).end();
      };
    case 'issueAccessToken':
      return async (_req, res) => {
        const { accessToken, expiresIn } = await deps.authenticator.issueAccessToken(requestContextOf(res).principal);
        sendJson(res, 200, { accessToken, expiresIn });
      };
    default: {
      const never: never = name;
      return never;
    }
  }
}
