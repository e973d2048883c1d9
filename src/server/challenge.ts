/**
 * `WWW-Authenticate` challenges, `Bearer` (RFC 6750 §3, RFC 9728 §5.1) and `DPoP` (RFC 9449 §7.1): where the
 * authorization server is (`resource_metadata`), what the request needs (`scope`), what was wrong with its token.
 * {@link challengeOf} reads a refusal's challenge from the error itself (its code, data, or what
 * {@link refusalWithChallenge} put on it), never from an HTTP status, so every carrier (HTTP 401/403, gRPC
 * `UNAUTHENTICATED`/`PERMISSION_DENIED`) sends the same one.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/** The parameters of a challenge. */
export interface ChallengeParams {
  /** The URL of the protected resource metadata (RFC 9728 §5.1). */
  readonly resourceMetadata: string;
  /** The scopes the request needs, if known. */
  readonly scope?: readonly string[];
  /**
   * `invalid_token`, `insufficient_scope` or `invalid_request` (RFC 6750 §3.1); `invalid_dpop_proof`
   * or `use_dpop_nonce` for a DPoP proof (RFC 9449 §7.1, §8).
   */
  readonly error?: "invalid_token" | "insufficient_scope" | "invalid_request" | "invalid_dpop_proof" | "use_dpop_nonce";
  /** A human-readable reason; never the token. */
  readonly description?: string;
}

/**
 * What a refusal says of itself: every parameter of a challenge but the metadata URL, which depends on
 * the endpoint, and its scheme: `DPoP` when the refusal is about a DPoP presentation (RFC 9449 §7.1).
 */
export type ChallengeDetails = Omit<ChallengeParams, "resourceMetadata"> & { readonly scheme?: "DPoP" };

/** Where a refusal keeps the parameters of its challenge (not its `data`, which the wires send). */
const CHALLENGE: unique symbol = /* @__PURE__ */ Symbol("mcplite.challenge");

/**
 * Creates an authentication refusal that carries its challenge's parameters.
 *
 * @param code `unauthenticated` (401, `UNAUTHENTICATED`) or `permission_denied` (403, `PERMISSION_DENIED`).
 * @param message The message, sent as is; never the token.
 * @param details The challenge's `error`, `error_description` and `scope`.
 * @returns The error.
 */
export function refusalWithChallenge(
  code: "unauthenticated" | "permission_denied",
  message: string,
  details: ChallengeDetails,
): ProtocolError {
  const error = new ProtocolError(code, message);
  Object.defineProperty(error, CHALLENGE, { value: details });
  return error;
}

/**
 * The challenge a refusal calls for, read from the error itself: the parameters of a refusal made by
 * {@link refusalWithChallenge}, or, for a `permission_denied` whose data names `requiredScopes` (a
 * definition's `.scopes()`), `insufficient_scope` with those scopes (MCP 2025-11-25, Authorization,
 * Scope Challenge Handling).
 *
 * @param error What a call or an authentication was refused with.
 * @returns The challenge's parameters but the metadata URL, or `undefined` when the error calls for none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ErrorCode, ProtocolError } from "../errors/error.ts";
 * import { challengeOf } from "./challenge.ts";
 * const refused = new ProtocolError(ErrorCode.PermissionDenied, "Insufficient scope", {
 *   data: { requiredScopes: ["docs:write"] },
 * });
 * assert.deepEqual(challengeOf(refused), { error: "insufficient_scope", scope: ["docs:write"] });
 * assert.equal(challengeOf(new ProtocolError(ErrorCode.UnknownTool, "no such tool")), undefined);
 * ```
 */
export function challengeOf(error: unknown): ChallengeDetails | undefined {
  if (!(error instanceof ProtocolError)) return undefined;
  const carried = (error as { [CHALLENGE]?: ChallengeDetails })[CHALLENGE];
  if (carried !== undefined) return carried;
  if (error.code !== "permission_denied") return undefined;
  const scope = (error.data as { requiredScopes?: unknown } | undefined)?.requiredScopes;
  return Array.isArray(scope) && scope.every((s) => typeof s === "string")
    ? { error: "insufficient_scope", scope }
    : undefined;
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

/**
 * Builds a `DPoP` challenge (RFC 9449 §7.1): the parameters of a `Bearer` one, and `algs`, the proof
 * algorithms the server accepts. The metadata URL goes in it too (RFC 9728 §5.1 allows it with any scheme).
 *
 * @param params Its parameters.
 * @param algs The accepted JWS algorithms of DPoP proofs.
 * @returns The header value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dpopChallenge } from "./challenge.ts";
 * assert.equal(
 *   dpopChallenge({ resourceMetadata: "https://api.example/.well-known/oauth-protected-resource", error: "invalid_dpop_proof" }, ["ES256", "EdDSA"]),
 *   'DPoP error="invalid_dpop_proof", resource_metadata="https://api.example/.well-known/oauth-protected-resource", algs="ES256 EdDSA"',
 * );
 * ```
 */
export function dpopChallenge(params: ChallengeParams, algs: readonly string[]): string {
  return `DPoP${bearerChallenge(params).slice("Bearer".length)}, algs=${quote(algs.join(" "))}`;
}

/** RFC 9110 §5.6.4 quoted-string; RFC 6750 §3 allows only %x20-21 / %x23-5B / %x5D-7E in values. */
function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "")}"`;
}
