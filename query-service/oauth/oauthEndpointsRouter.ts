import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { isOAuthError, type OAuthClientCredentials, type OAuthServer } from '../../contracts/index.ts';
import type { OriginPolicy } from '../http/csrfGate.ts';
import { sendJson } from '../http/sendJson.ts';
import { issuerOf } from './oauthIssuer.ts';

const FORM_TYPE = 'application/x-www-form-urlencoded';

function mediaTypeOf(req: Request): string {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** An RFC 6749 §5.2 error body; never the Strata error body (errors.md §5). */
function sendOAuthError(res: Response, status: number, error: string, description: string, headers: Readonly<Record<string, string>> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  sendJson(res, status, { error, error_description: description });
}

/** `Authorization: Basic` of RFC 6749 §2.3.1 (form-urlencoded id and secret), or null. */
function basicCredentials(req: Request): OAuthClientCredentials['basic'] {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** Form parameters, each exactly once (RFC 6749 §3.2: repeated parameters are an invalid_request). */
function formOf(req: Request): Record<string, string> | string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string') return name;
    form[name] = value;
  }
  return form;
}

/** Browser-based MCP clients call these endpoints across origins; no cookie is ever read, so `*` is safe. */
function openCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization');
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}

/**
 * `POST /oauth/register` (RFC 7591, JSON), `POST /oauth/token` and `POST /oauth/revoke` (form-encoded): parse,
 * call the authorization server, answer in OAuth's own error format.
 */
export function createOAuthEndpointsRouter(deps: { readonly oauth: OAuthServer; readonly origins: OriginPolicy; readonly log: Logger }): Router {
  const { oauth } = deps;
  const router = express.Router();
  const json = express.json({ limit: '64kb', type: () => true });
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50, type: () => true });
  const correlation = (res: Response): string => res.locals.requestId ?? 'unknown';

  const guard =
    (run: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response): Promise<void> => {
      try {
        await run(req, res);
      } catch (err) {
        if (isOAuthError(err)) return sendOAuthError(res, err.status, err.error, err.message, err.headers);
        (req.log ?? deps.log).error({ err }, 'oauth endpoint failed');
        sendOAuthError(res, 500, 'server_error', 'Internal server error');
      }
    };

  /** Body-parser failures (bad JSON, too large) in OAuth form. */
  const parsed =
    (parser: express.RequestHandler, error: string) =>
    (req: Request, res: Response, next: NextFunction): void => {
      parser(req, res, (err?: unknown) => (err ? sendOAuthError(res, 400, error, 'The request body could not be read') : next()));
    };

  router.use('/oauth/register', openCors);
  router.use('/oauth/token', openCors);
  router.use('/oauth/revoke', openCors);

  router.post(
    '/oauth/register',
    (req, res, next) => {
      if (mediaTypeOf(req) !== 'application/json')
        return sendOAuthError(res, 400, 'invalid_client_metadata', 'Content-Type must be application/json');
      next();
    },
    parsed(json, 'invalid_client_metadata'),
    guard(async (req, res) => {
      const body = await oauth.register(req.body, { clientIp: req.ip ?? '', correlationId: correlation(res) });
      res.setHeader('Cache-Control', 'no-store');
      sendJson(res, 201, body);
    }),
  );

  const formRoute = (run: (form: Record<string, string>, credentials: OAuthClientCredentials, req: Request, res: Response) => Promise<void>) => [
    (req: Request, res: Response, next: NextFunction) => {
      if (mediaTypeOf(req) !== FORM_TYPE) return sendOAuthError(res, 400, 'invalid_request', `Content-Type must be ${FORM_TYPE}`);
      next();
    },
    parsed(form, 'invalid_request'),
    guard(async (req, res) => {
      const values = formOf(req);
      if (typeof values === 'string') return sendOAuthError(res, 400, 'invalid_request', `${values} must be given once`);
      const credentials: OAuthClientCredentials = {
        basic: basicCredentials(req),
        formClientId: values.client_id ?? null,
        formSecret: values.client_secret ?? null,
      };
      await run(values, credentials, req, res);
    }),
  ];

  router.post(
    '/oauth/token',
    ...formRoute(async (values, credentials, req, res) => {
      const issuer = issuerOf(req, deps.origins);
      if (issuer === null) return sendOAuthError(res, 400, 'invalid_request', 'The server cannot tell its own address for this request');
      const tokens = await oauth.token(values, credentials, { issuer, correlationId: correlation(res) });
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      sendJson(res, 200, tokens);
    }),
  );

  router.post(
    '/oauth/revoke',
    ...formRoute(async (values, credentials, _req, res) => {
      await oauth.revoke(values, credentials, { correlationId: correlation(res) });
      res.setHeader('Cache-Control', 'no-store');
      res.status(200).end();
    }),
  );
  return router;
}
