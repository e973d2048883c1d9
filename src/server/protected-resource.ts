/**
 * The server as a protected resource (MCP 2025-11-25 and 2026-07-28, Authorization): its Protected
 * Resource Metadata (RFC 9728 §2) and where it lives (§3, and its path-suffixed form for each
 * endpoint), and the authentication of a request's bearer token, with refusals that carry their
 * challenge. The server's gate (`gate.ts`) puts them together for every carrier.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import { holdsScopes } from "../core/definitions/scopes.ts";
import { bearerToken, type ServerAuth } from "./auth.ts";
import { refusalWithChallenge } from "./challenge.ts";
import type { DpopChecks, DpopPolicy, DpopProof } from "./dpop.ts";

/** Where the metadata lives (RFC 9728 §3). */
export const METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * The Protected Resource Metadata document (RFC 9728 §2).
 *
 * @param auth The server's authentication.
 * @returns The document.
 */
export function protectedResourceMetadata(auth: ServerAuth): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource: auth.resource,
    authorization_servers: [...auth.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (auth.scopesSupported !== undefined) document.scopes_supported = [...auth.scopesSupported];
  if (auth.resourceName !== undefined) document.resource_name = auth.resourceName;
  if (auth.resourceDocumentation !== undefined) document.resource_documentation = auth.resourceDocumentation;
  const dpop = auth.dpop as DpopPolicy | undefined; // what jwtAuth({ dpop }) made (opaque in ServerAuth)
  if (dpop !== undefined) { // RFC 9449 §5.2
    document.dpop_signing_alg_values_supported = [...dpop.algorithms];
    document.dpop_bound_access_tokens_required = dpop.required;
  }
  return document;
}

/**
 * The origin of the server's resource, which the metadata URLs in challenges start with.
 *
 * @param auth The server's authentication.
 * @returns The origin, e.g. `https://api.example.com`.
 * @throws {TypeError} When `resource` is not an absolute URL.
 */
export function resourceOrigin(auth: ServerAuth): string {
  try {
    return new URL(auth.resource).origin;
  } catch {
    throw new TypeError(`auth.resource must be an absolute URL, got ${JSON.stringify(auth.resource)}`);
  }
}

/**
 * The URL of the metadata that covers an endpoint: the well-known path followed by the endpoint's path
 * (RFC 9728 §3.1), at the resource's origin.
 *
 * @param origin The resource's origin ({@link resourceOrigin}).
 * @param pathname The endpoint's path, e.g. `/mcp`.
 * @returns The URL.
 */
export function resourceMetadataUrl(origin: string, pathname: string): string {
  return origin + METADATA_PATH + pathname;
}

/**
 * Authenticates a request with the server's authentication, whatever wire it came on: reads its bearer
 * token (RFC 6750 §2.1, the `Authorization` header only), verifies it, and checks the scopes every
 * request needs. A refusal is `unauthenticated` (401, gRPC `UNAUTHENTICATED`), with `error="invalid_token"`
 * in its challenge when a token was sent, or `permission_denied` (403, `PERMISSION_DENIED`) with an
 * `insufficient_scope` challenge; the error carries the challenge (`challengeOf()` reads it). No message
 * or challenge holds the token. A verifier that throws `unavailable` (its issuer is down) passes it on:
 * 503 with `Retry-After`, gRPC `UNAVAILABLE`, its data saying `processed: false` (nothing ran). Carriers call
 * it through the server's gate.
 *
 * With `auth.dpop` (RFC 9449), the checks its policy brings (`dpop`) run: a token presented with the
 * `DPoP` scheme needs a proof for this request by the key it is bound to, used once; a DPoP-bound token
 * presented as a bearer token is refused (§7.2), and so is every bearer token when DPoP is required.
 * Those refusals carry `DPoP` challenges (`invalid_dpop_proof`, `invalid_token`).
 *
 * @param auth The server's authentication.
 * @param request The request (its headers, method and URL; its body is not read).
 * @param dpop The checks of `auth.dpop` for this server (`auth.dpop.checks(store)`), when it has DPoP.
 * @returns The caller, with its token: a new object for each request.
 * @throws {ProtocolError} (rejects) The refusal, carrying its challenge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { challengeOf } from "./challenge.ts";
 * import { authenticate } from "./protected-resource.ts";
 * const auth = {
 *   resource: "https://api.example.com",
 *   authorizationServers: ["https://auth.example.com"],
 *   verify: (token: string) => (token === "good" ? { subject: "ada", scopes: [] } : undefined),
 * };
 * const ask = (headers: Record<string, string>) =>
 *   authenticate(auth, new Request("https://api.example.com/mcp", { headers }));
 * assert.equal((await ask({ authorization: "Bearer good" })).subject, "ada");
 * const refusal = await ask({ authorization: "Bearer bad" }).catch((error) => error);
 * assert.equal(refusal.code, "unauthenticated");
 * assert.equal(challengeOf(refusal)?.error, "invalid_token");
 * ```
 */
export async function authenticate(
  auth: ServerAuth,
  request: Request,
  dpop?: DpopChecks,
): Promise<AuthInfo> {
  const bearer = bearerToken(request);
  if (bearer.kind === "none") {
    throw refusalWithChallenge(
      "unauthenticated",
      `Unauthorized: send an access token (Authorization: ${
        (auth.dpop as DpopPolicy | undefined)?.required ? "DPoP, with a DPoP proof" : "Bearer"
      })`,
      {
        scope: auth.requiredScopes,
      },
    );
  }
  if (bearer.kind === "malformed" || (bearer.scheme === "DPoP" && dpop === undefined)) {
    const reason = "the Authorization header is not a Bearer token";
    throw refusalWithChallenge("unauthenticated", `Unauthorized: ${reason}`, {
      error: "invalid_token",
      description: reason,
      scope: auth.requiredScopes,
    });
  }
  const proof: DpopProof | undefined = dpop === undefined
    ? undefined
    : await dpop.presented(request, bearer.token, bearer.scheme);
  let info: AuthInfo | undefined;
  let reason = "the access token is not valid for this resource";
  try {
    info = await auth.verify(bearer.token, request);
  } catch (error) {
    // The verifier could not decide (its issuer is down): a retryable refusal, not an invalid token;
    // nothing ran, so the client may send even a tool call again (`processed: false`).
    if (error instanceof ProtocolError && error.code === "unavailable") throw notProcessed(error);
    if (error instanceof Error && error.message !== "" && !error.message.includes(bearer.token)) {
      reason = error.message;
    }
  }
  if (info === undefined) {
    throw refusalWithChallenge("unauthenticated", `Unauthorized: ${reason}`, {
      error: "invalid_token",
      description: reason,
      scope: auth.requiredScopes,
    });
  }
  if (dpop !== undefined) await dpop.bound(info, proof);
  if (!holdsScopes(auth.requiredScopes, info)) {
    throw refusalWithChallenge("permission_denied", "Insufficient scope", {
      error: "insufficient_scope",
      scope: auth.requiredScopes,
    });
  }
  return { ...info, token: bearer.token };
}

/** A refusal of the gate, made before anything ran: says so in its data, for clients that retry. */
function notProcessed(error: ProtocolError): ProtocolError {
  const data = typeof error.data === "object" && error.data !== null ? error.data : {};
  return new ProtocolError("unavailable", error.message, {
    data: { reason: "unavailable", ...data, processed: false },
    cause: error,
  });
}
