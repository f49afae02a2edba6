import type { Request } from 'express';
import { ownOriginOf, type OriginPolicy } from '../http/csrfGate.ts';

/** `{base}` (oauth.md §1): PUBLIC_URL, else scheme and allowed host of the request; null when the host is not allowed. */
export function issuerOf(req: Request, origins: OriginPolicy): string | null {
  return ownOriginOf(req, origins.publicUrl, origins.hosts);
}

/** The RFC 9728 document URL of the MCP resource. */
export const resourceMetadataUrl = (base: string): string => `${base}/.well-known/oauth-protected-resource/mcp`;

const SCOPES = 'scope="strata:read strata:write"';

/**
 * `WWW-Authenticate` of a 401 from /mcp (oauth.md §2.1): `resource_metadata` so OAuth clients can start their flow
 * (`base` null when OAuth is off), `error="invalid_token"` when a presented token was refused.
 */
export function mcpUnauthorizedChallenge(base: string | null, tokenRefused: boolean): string {
  const parts = ['Bearer realm="strata"'];
  if (base !== null) parts.push(`resource_metadata="${resourceMetadataUrl(base)}"`, SCOPES);
  if (tokenRefused) parts.push('error="invalid_token"');
  return parts.join(', ');
}

/** `WWW-Authenticate` of the 403 step-up (oauth.md §2.1): the token lacks `strata:write`. */
export function mcpInsufficientScopeChallenge(base: string | null): string {
  return ['Bearer error="insufficient_scope"', SCOPES, ...(base === null ? [] : [`resource_metadata="${resourceMetadataUrl(base)}"`])].join(', ');
}
