/**
 * Verifies a JWT presented to the token endpoint (RFC 7523 §3): its signature by its issuer's keys with an
 * accepted asymmetric algorithm (`none` and HMAC never), `iss`, `aud`, `exp`, `nbf` and `iat` within the tolerated
 * skew, and its lifetime within a bound (§3 items 4 and 5): `exp` − `iat`, or without `iat` where the bound allows
 * it, `exp` from now. Every assertion this server takes passes here (ID-JAGs, workloads' JWTs, client assertions);
 * a refusal says why without the JWT, and names the bound and what sets it.
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

/** The longest a JWT may live, and what a refusal names to change it. */
export interface LifetimeBound {
  /** The longest `exp` − `iat` (or `exp` − now, without `iat` where it is optional), in seconds. */
  readonly maxSec: number;
  /** Whether the JWT must carry `iat`: without it, only what is left of its life could be bounded. */
  readonly iatRequired: boolean;
  /** The option that sets the bound (`trustedIssuers[0].maxLifetimeSec`), if one does. */
  readonly setting?: string;
}

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
 * @param expected The issuer, the accepted audiences, the skew in seconds, what it is (for messages), and
 *   the bound of its lifetime.
 * @returns The claims (`exp` present) and the `typ` header.
 * @throws {TokenError} `invalid_grant` when it does not verify or lives too long; `temporarily_unavailable`
 *   (503) when the issuer's keys cannot be read.
 */
export async function verifyAssertion(
  jwt: string,
  keySet: KeySet,
  expected: {
    issuer: string;
    audience: string | string[];
    toleranceSec: number;
    what: string;
    lifetime: LifetimeBound;
  },
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
    throw new TokenError("invalid_grant", reasonOf(error, what, expected.lifetime));
  }
  const now = Date.now() / 1000;
  if (typeof payload.iat === "number" && payload.iat > now + expected.toleranceSec) {
    throw new TokenError("invalid_grant", `${what} is issued in the future (iat)`);
  }
  checkLifetime(payload.exp!, payload.iat, now, expected);
  return { payload, typ };
}

/** Refuses a JWT that lives longer than its bound (or may: no `iat` where the bound requires one). */
function checkLifetime(
  exp: number,
  iat: number | undefined,
  now: number,
  expected: { toleranceSec: number; what: string; lifetime: LifetimeBound },
): void {
  const { what, lifetime } = expected;
  if (typeof iat === "number") {
    // Both times are the issuer's clock: no skew between them to tolerate.
    if (exp - iat <= lifetime.maxSec) return;
    throw new TokenError("invalid_grant", `${what} lives ${exp - iat} s (exp - iat): ${limit(lifetime)}`);
  }
  if (lifetime.iatRequired) {
    throw new TokenError("invalid_grant", `${what} has no iat, so how long it lives is unknown: ${limit(lifetime)}`);
  }
  // Without `iat` (RFC 7523 §3 leaves it optional), what is left of its life, read on two clocks.
  if (exp - now > lifetime.maxSec + expected.toleranceSec) {
    throw new TokenError("invalid_grant", `${what} expires ${Math.round(exp - now)} s from now: ${limit(lifetime)}`);
  }
}

/** The bound, as a refusal names it. */
function limit(lifetime: LifetimeBound): string {
  const set = lifetime.setting === undefined ? "" : ` (${lifetime.setting} sets it)`;
  return `this server takes JWTs that live at most ${lifetime.maxSec} s${set}`;
}

/** A reason safe to send back in `error_description` (jose's messages never contain the token). */
function reasonOf(error: unknown, what: string, lifetime: LifetimeBound): string {
  if (error instanceof errors.JWTExpired) return `${what} expired`;
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "exp":
        if (error.reason === "missing") return `${what} has no exp: ${limit(lifetime)}`;
        return `${what}'s exp claim is invalid`;
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
