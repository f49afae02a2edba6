import express, { type Request, type Response, type Router } from 'express';
import { OAUTH_SCOPES } from '../../contracts/index.ts';
import type { OriginPolicy } from '../http/csrfGate.ts';
import { sendJson } from '../http/sendJson.ts';
import { issuerOf } from './oauthIssuer.ts';

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'];

/** RFC 9728 protected-resource metadata of `{base}/mcp` (oauth.md §2). */
export function protectedResourceMetadata(base: string): Record<string, unknown> {
  return {
    resource: `${base}/mcp`,
    authorization_servers: [base],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Strata MCP',
  };
}

/** RFC 8414 authorization-server metadata (oauth.md §2). */
export function authorizationServerMetadata(base: string): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** Public, CORS-open (no credentials) JSON. */
function sendPublic(req: Request, res: Response, document: (base: string) => Record<string, unknown>, origins: OriginPolicy): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'MCP-Protocol-Version, Content-Type');
    res.status(204).end();
    return;
  }
  const base = issuerOf(req, origins);
  if (base === null) {
    sendJson(res, 404, { error: 'not_found' });
    return;
  }
  res.setHeader('Cache-Control', 'max-age=300');
  sendJson(res, 200, document(base));
}

/** The discovery documents; every other `/.well-known/*` path → 404. */
export function createOAuthDiscoveryRouter(origins: OriginPolicy): Router {
  const router = express.Router();
  const resource = (req: Request, res: Response): void => sendPublic(req, res, protectedResourceMetadata, origins);
  router.get('/.well-known/oauth-protected-resource/mcp', resource);
  router.options('/.well-known/oauth-protected-resource/mcp', resource);
  router.get('/.well-known/oauth-protected-resource', resource);
  router.options('/.well-known/oauth-protected-resource', resource);
  const server = (req: Request, res: Response): void => sendPublic(req, res, authorizationServerMetadata, origins);
  router.get('/.well-known/oauth-authorization-server', server);
  router.options('/.well-known/oauth-authorization-server', server);
  return router;
}
