/** Narrowing of an API key (auth.md §8.2, §8.5). `null` dimensions are unrestricted. */
export type KeyScope = {
  readonly keyId: string;
  readonly organizationId: string | null;
  readonly projectIds: readonly string[] | null;
  /** Exact branch names or `$default`. */
  readonly branchNames: readonly string[] | null;
  readonly tableIds: readonly string[] | null;
  readonly readOnly: boolean;
};

export type PermissionRule = {
  readonly action: string | readonly string[];
  readonly subject: string | readonly string[];
  readonly inverted?: boolean;
};

/** How a user principal authenticated. */
export type UserCredentialKind = 'jwt' | 'cookie' | 'personalKey' | 'mcpLogin' | 'oauth';

/** What an OAuth access token carries beyond the user (oauth.md §5); its narrowing is the principal's `key`. */
export type OAuthAuthority = {
  readonly clientId: string;
  readonly grantId: string;
  readonly scopes: readonly string[];
};

/** The identity a request acts as (auth.md §1). */
export type Principal =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'user';
      readonly userId: string;
      readonly username: string;
      readonly via: UserCredentialKind;
      /** Refresh-family id of a JWT (cookie or bearer); null for keys and MCP password sessions. */
      readonly sid: string | null;
      /**
       * Present when the user acts through a personal API key, or through an OAuth token (its organization
       * narrowing and read-only when `strata:write` was not granted).
       */
      readonly key: KeyScope | null;
      /** Present when the user acts through an OAuth access token. */
      readonly oauth?: OAuthAuthority;
    }
  | {
      readonly kind: 'service';
      readonly keyId: string;
      readonly organizationId: string;
      readonly rules: readonly PermissionRule[];
      readonly key: KeyScope;
    };

export const anonymousPrincipal: Principal = { kind: 'anonymous' };

/** `user:<id>`, `key:<id>` or `anonymous`: the form used in logs and event metadata. */
export function principalRef(principal: Principal): string {
  switch (principal.kind) {
    case 'anonymous':
      return 'anonymous';
    case 'user':
      return principal.key && !principal.oauth ? `key:${principal.key.keyId}` : `user:${principal.userId}`;
    case 'service':
      return `key:${principal.keyId}`;
    default: {
      const never: never = principal;
      return never;
    }
  }
}

/** Scope of the key the principal acts through, if any. */
export function keyScopeOf(principal: Principal): KeyScope | null {
  return principal.kind === 'anonymous' ? null : principal.key;
}

/** A user authenticated by a JWT (cookie or bearer), as key management and issueAccessToken require. */
export function isJwtUser(principal: Principal): boolean {
  return principal.kind === 'user' && (principal.via === 'jwt' || principal.via === 'cookie');
}
