/**
 * The token endpoint's refusals (RFC 6749 §5.2; RFC 8707 §2 `invalid_target`; RFC 9449 §5 and §8 for DPoP):
 * thrown where a check fails, answered as the JSON error response with its status, `Cache-Control:
 * no-store`, and the headers the error calls for (`WWW-Authenticate` for HTTP Basic, `DPoP-Nonce`).
 *
 * @module
 */

/** The `error` codes of a token response. */
export type TokenErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_dpop_proof"
  | "use_dpop_nonce"
  | "temporarily_unavailable";

/** A refusal of a token request: its code, a description safe to send (never a credential), its status. */
export class TokenError extends Error {
  override readonly name = "TokenError";
  /** The RFC 6749 §5.2 (or extension) `error`. */
  readonly code: TokenErrorCode;
  /** The HTTP status: 400, or 401 for `invalid_client`, 503 when a store or an issuer is down. */
  readonly status: number;
  /** Headers to send with it. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: TokenErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(description, { cause: options.cause });
    this.code = code;
    this.status = options.status ?? (code === "invalid_client" ? 401 : 400);
    this.headers = options.headers ?? {};
  }
}

/** RFC 6749 §5.1: a response with tokens or credentials is never cached. */
export const NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json",
  "cache-control": "no-store",
  pragma: "no-cache",
});

/**
 * The error response of a refusal (RFC 6749 §5.2).
 *
 * @param error The refusal.
 * @returns The JSON response.
 */
export function tokenErrorResponse(error: TokenError): Response {
  return new Response(JSON.stringify({ error: error.code, error_description: error.message }), {
    status: error.status,
    headers: { ...NO_STORE, ...error.headers },
  });
}

/**
 * A shorthand for the common refusal of a grant (RFC 6749 §5.2 `invalid_grant`).
 *
 * @param description Why.
 * @returns The refusal.
 */
export function invalidGrant(description: string): TokenError {
  return new TokenError("invalid_grant", description);
}
