/**
 * A refusal of an OAuth endpoint in RFC 6749 §5.2 / RFC 7591 form (`{"error", "error_description"}`): OAuth
 * endpoints never answer with the Strata error body (errors.md §5).
 */
export class OAuthError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, error: string, description: string, headers: Readonly<Record<string, string>> = {}) {
    super(description);
    this.name = 'OAuthError';
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export function isOAuthError(err: unknown): err is OAuthError {
  return err instanceof Error && err.name === 'OAuthError';
}
