/**
 * `WWW-Authenticate: Bearer …` challenges (RFC 6750 §3, RFC 9728 §5.1): what the client needs to find
 * the authorization server (`resource_metadata`), what the request needs (`scope`), and what was wrong
 * with the token it sent (`error`, `error_description`).
 *
 * @module
 */

/** The parameters of a challenge. */
export interface ChallengeParams {
  /** The URL of the protected resource metadata (RFC 9728 §5.1). */
  readonly resourceMetadata: string;
  /** The scopes the request needs, if known. */
  readonly scope?: readonly string[];
  /** `invalid_token`, `insufficient_scope` or `invalid_request` (RFC 6750 §3.1). */
  readonly error?: "invalid_token" | "insufficient_scope" | "invalid_request";
  /** A human-readable reason; never the token. */
  readonly description?: string;
}

/**
 * Builds a `Bearer` challenge.
 *
 * @param params Its parameters.
 * @returns The header value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bearerChallenge } from "./challenge.ts";
 * assert.equal(
 *   bearerChallenge({ resourceMetadata: "https://api.example/.well-known/oauth-protected-resource", error: "insufficient_scope", scope: ["docs:write"] }),
 *   'Bearer error="insufficient_scope", scope="docs:write", resource_metadata="https://api.example/.well-known/oauth-protected-resource"',
 * );
 * ```
 */
export function bearerChallenge(params: ChallengeParams): string {
  const parts: string[] = [];
  if (params.error !== undefined) parts.push(`error=${quote(params.error)}`);
  if (params.description !== undefined) parts.push(`error_description=${quote(params.description)}`);
  if (params.scope !== undefined && params.scope.length > 0) parts.push(`scope=${quote(params.scope.join(" "))}`);
  parts.push(`resource_metadata=${quote(params.resourceMetadata)}`);
  return `Bearer ${parts.join(", ")}`;
}

/** RFC 9110 §5.6.4 quoted-string; RFC 6750 §3 allows only %x20-21 / %x23-5B / %x5D-7E in values. */
function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "")}"`;
}
