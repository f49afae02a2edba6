import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { isAppError, type Authenticator, type OAuthServer, type Principal, type SystemStateSource } from '../../contracts/index.ts';
import { cookieValues } from '../http/authenticate.ts';
import { csrfAllows, type OriginPolicy } from '../http/csrfGate.ts';
import { ACCESS_TOKEN_COOKIE, type SessionCookies } from '../http/sessionCookies.ts';
import { authorizeParamsOf, checkAuthorizeRequest, redirectWith, type ValidAuthorizeRequest } from './oauthAuthorizeRequest.ts';
import { issuerOf } from './oauthIssuer.ts';
import { sendConsentPage, sendErrorPage, sendSignInPage, setPageHeaders, type PageShell } from './oauthPages.ts';

export type OAuthAuthorizeDeps = {
  readonly oauth: OAuthServer;
  readonly authenticator: Authenticator;
  readonly systemState: SystemStateSource;
  readonly cookies: SessionCookies;
  readonly origins: OriginPolicy;
  readonly shell: PageShell;
  readonly log: Logger;
};

type SignedIn = Extract<Principal, { kind: 'user' }> & { readonly sid: string };

/** The browser session of the `svc_at` cookie, or null (no cookie, expired, revoked: sign in again). */
async function browserUser(authenticator: Authenticator, req: Request): Promise<SignedIn | null> {
  const cookies = cookieValues(req.headers.cookie, ACCESS_TOKEN_COOKIE);
  if (cookies.length !== 1) return null;
  try {
    const principal = await authenticator.authenticate({ authorization: null, apiKeyHeader: null, apiKeyQuery: null, accessTokenCookies: cookies });
    return principal.kind === 'user' && principal.via === 'cookie' && principal.sid !== null ? (principal as SignedIn) : null;
  } catch {
    return null;
  }
}

/** What the anti-forgery token is bound to: this browser session and every parameter the code will be bound to. */
function bindingOf(user: SignedIn, request: ValidAuthorizeRequest): string {
  return [
    user.sid,
    request.client.clientId,
    request.redirectUri,
    request.codeChallenge,
    request.scopes.join(' '),
    request.state ?? '',
    request.resource,
  ].join('\n');
}

function originOfRedirect(uri: string): string {
  const url = new URL(uri);
  return url.origin === 'null' ? `${url.protocol}` : url.origin;
}

/**
 * `GET /oauth/authorize`, the sign-in form it may show first (`POST /oauth/authorize/login`) and the consent
 * decision (`POST /oauth/authorize`), per oauth.md §4. Untrustworthy client or redirect URI → an error page, never
 * a redirect; the decision passes the CSRF gate and carries an anti-forgery token, else 403 and no code.
 */
export function createOAuthAuthorizeRouter(deps: OAuthAuthorizeDeps): Router {
  const { oauth, authenticator, shell } = deps;
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });

  async function validate(
    req: Request,
    res: Response,
    source: Readonly<Record<string, unknown>>,
  ): Promise<{ base: string; request: ValidAuthorizeRequest } | null> {
    const base = issuerOf(req, deps.origins);
    if (base === null) {
      sendErrorPage(res, shell, 400, 'Request refused', 'The server cannot tell its own address for this request.');
      return null;
    }
    const check = await checkAuthorizeRequest(oauth, source, base);
    if (check.kind === 'page') {
      sendErrorPage(res, shell, 400, 'Authorization request refused', check.message);
      return null;
    }
    if (check.kind === 'redirect') {
      res.redirect(302, redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state, iss: base }));
      return null;
    }
    return { base, request: check.request };
  }

  async function showConsent(res: Response, user: SignedIn, request: ValidAuthorizeRequest, params: Readonly<Record<string, string>>): Promise<void> {
    const state = await deps.systemState.current();
    const organizations = [...state.organizations.values()]
      .filter((o) => o.members.has(user.userId))
      .map((o) => o.id)
      .sort();
    sendConsentPage(res, shell, {
      clientName: request.client.name,
      registered: request.client.kind === 'registered',
      documentHost: request.client.documentHost,
      redirectHost: new URL(request.redirectUri).host || request.redirectUri,
      redirectOrigin: originOfRedirect(request.redirectUri),
      scopes: request.scopes,
      username: user.username,
      organizations,
      fields: { ...params, form_token: oauth.formToken(bindingOf(user, request)) },
    });
  }

  router.get('/oauth/authorize', async (req, res) => {
    const source = req.query as Record<string, unknown>;
    const valid = await validate(req, res, source);
    if (valid === null) return;
    const { params } = authorizeParamsOf(source);
    const user = await browserUser(authenticator, req);
    if (user === null) sendSignInPage(res, shell, params, null);
    else await showConsent(res, user, valid.request, params);
  });

  router.post('/oauth/authorize/login', form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { params } = authorizeParamsOf(body);
    if (!csrfAllows(req, deps.origins)) {
      sendErrorPage(res, shell, 403, 'Request refused', 'This sign-in did not come from this site.');
      return;
    }
    if ((await validate(req, res, body)) === null) return;
    const username = typeof body.username === 'string' ? body.username : '';
    const password = typeof body.password === 'string' ? body.password : '';
    try {
      const result = await authenticator.login({ username, password, clientIp: req.ip ?? '' });
      deps.cookies.set(res, result);
    } catch (err) {
      if (isAppError(err, 'INVALID_CREDENTIALS')) return sendSignInPage(res, shell, params, 'Wrong username or password.', 401);
      if (isAppError(err, 'RATE_LIMITED')) {
        for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
        return sendSignInPage(res, shell, params, 'Too many failed sign-ins; try again later.', 429);
      }
      throw err;
    }
    const query = new URLSearchParams(params).toString();
    res.redirect(303, `/oauth/authorize?${query}`);
  });

  router.post('/oauth/authorize', form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!csrfAllows(req, deps.origins)) {
      sendErrorPage(res, shell, 403, 'Request refused', 'This decision did not come from this site; no access was granted.');
      return;
    }
    const valid = await validate(req, res, body);
    if (valid === null) return;
    const { base, request } = valid;
    const user = await browserUser(authenticator, req);
    const token = typeof body.form_token === 'string' ? body.form_token : '';
    if (user === null || !oauth.isFormToken(token, bindingOf(user, request))) {
      sendErrorPage(
        res,
        shell,
        403,
        'Request refused',
        'The consent form expired or was not issued to this session; no access was granted. Start again from the application.',
      );
      return;
    }
    setPageHeaders(res);
    if (body.decision !== 'allow') {
      res.redirect(
        302,
        redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: request.state, iss: base }),
      );
      return;
    }
    const readOnly = body.read_only === '1';
    const organization = typeof body.organization === 'string' && body.organization !== '' ? body.organization : null;
    const scopes = readOnly ? request.scopes.filter((s) => s !== 'strata:write') : request.scopes;
    try {
      const { code } = await oauth.approve(
        {
          userId: user.userId,
          client: request.client,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          scopes,
          resource: request.resource,
          organizationId: organization,
        },
        { correlationId: res.locals.requestId ?? 'unknown' },
      );
      res.redirect(302, redirectWith(request.redirectUri, { code, state: request.state, iss: base }));
    } catch (err) {
      if (!isAppError(err, 'BAD_USER_INPUT')) throw err;
      res.redirect(
        302,
        redirectWith(request.redirectUri, { error: 'invalid_request', error_description: err.message, state: request.state, iss: base }),
      );
    }
  });
  return router;
}
