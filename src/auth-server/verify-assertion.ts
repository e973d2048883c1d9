/**
 * Verifies a JWT presented to the token endpoint (RFC 7523 §3): its signature by its issuer's keys with an
 * accepted asymmetric algorithm (`none` and HMAC never), `iss`, `aud`, `exp` required and not passed, `nbf`,
 * and an `iat` not in the future, each within the tolerated skew. A refusal says why without the JWT.
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { JWTPayload } from "jose";
import { decodeJwt, errors, jwtVerify } from "jose";
import { ProtocolError } from "../errors/error.ts";
import type { KeySet } from "./key-sets.ts";
import { TokenError } from "./oauth-error.ts";

/** What a verified assertion holds. */
export interface VerifiedAssertion {
  readonly payload: JWTPayload;
  readonly typ: string | undefined;
}

/**
 * Reads the claims of a JWT before it is verified, to find whose keys verify it.
 *
 * @param jwt The JWT.
 * @param what Names it in the refusal ("the assertion").
 * @returns Its unverified claims.
 * @throws {TokenError} `invalid_grant` for a value that is not a JWT.
 */
export function unverifiedClaims(jwt: string, what: string): JWTPayload {
  try {
    return decodeJwt(jwt);
  } catch {
    throw new TokenError("invalid_grant", `${what} is not a JWT`);
  }
}

/**
 * Verifies a JWT.
 *
 * @param jwt The JWT.
 * @param keySet The issuer's keys and algorithms.
 * @param expected The issuer, the accepted audiences, the skew in seconds, and what it is (for messages).
 * @returns The claims and the `typ` header.
 * @throws {TokenError} `invalid_grant` when it does not verify; `temporarily_unavailable` (503) when the
 *   issuer's keys cannot be read.
 */
export async function verifyAssertion(
  jwt: string,
  keySet: KeySet,
  expected: { issuer: string; audience: string | string[]; toleranceSec: number; what: string },
): Promise<VerifiedAssertion> {
  const { what } = expected;
  let payload: JWTPayload;
  let typ: string | undefined;
  try {
    ({ payload, protectedHeader: { typ } } = await jwtVerify(jwt, keySet.keys, {
      issuer: expected.issuer,
      audience: expected.audience,
      algorithms: keySet.algorithms,
      clockTolerance: expected.toleranceSec,
      requiredClaims: ["exp"],
    }));
  } catch (error) {
    if (error instanceof ProtocolError) {
      // The issuer's keys are unavailable (remote-keys.ts): not the assertion's fault; the client retries.
      const retryAfterMs = (error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 1000;
      throw new TokenError("temporarily_unavailable", "the issuer's keys cannot be read now; retry", {
        status: 503,
        headers: { "retry-after": String(Math.ceil(retryAfterMs / 1000)) },
        cause: error,
      });
    }
    throw new TokenError("invalid_grant", reasonOf(error, what));
  }
  if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + expected.toleranceSec) {
    throw new TokenError("invalid_grant", `${what} is issued in the future (iat)`);
  }
  return { payload, typ };
}

/** A reason safe to send back in `error_description` (jose's messages never contain the token). */
function reasonOf(error: unknown, what: string): string {
  if (error instanceof errors.JWTExpired) return `${what} expired`;
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "aud":
        return `${what} is for another audience`;
      case "iss":
        return `${what} is from another issuer`;
      case "nbf":
        return `${what} is not valid yet`;
      default:
        return `${what}'s ${error.claim} claim is missing or invalid`;
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey) return `${what} is signed with a key its issuer does not publish`;
  if (error instanceof errors.JOSEAlgNotAllowed) return `${what}'s signature algorithm is not accepted`;
  if (error instanceof errors.JWSSignatureVerificationFailed) return `${what}'s signature is invalid`;
  return `${what} is malformed or invalid`;
}
