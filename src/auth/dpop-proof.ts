/**
 * Verifying DPoP proofs (RFC 9449 §4.3) with `jose`: the `DpopPolicy` that `jwtAuth({ dpop })` gives
 * the server's gate.
 *
 * @module
 */
import { calculateJwkThumbprint, EmbeddedJWK, errors, type JWTHeaderParameters, jwtVerify } from "jose";
import type { SharedStore } from "../store/shared-store.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { sha256 } from "../internal/sha256.ts";
import type { DpopChecks, DpopPolicy, DpopProof, DpopRequest } from "../server/dpop.ts";
import { dpopChecks } from "../server/dpop-checks.ts";

/** Options of {@link dpopPolicy}. */
export interface DpopPolicyOptions {
  /** `"required"`: every token must be DPoP-bound; `"allowed"`: bearer tokens that are not bound are taken too. */
  readonly mode: "required" | "allowed";
  /** The accepted proof algorithms (asymmetric only). */
  readonly algorithms: readonly string[];
  /** The resource (RFC 8707): `htu` may name its origin, as a client behind a proxy sees the server. */
  readonly resource: string;
  /** How far `iat` may be from the server's clock, in seconds (default 60). */
  readonly windowSec?: number;
  /** Whether proofs must carry a nonce the server issued (RFC 9449 §8). */
  readonly nonce?: boolean;
  /** The clock, in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** The longest `jti` kept (RFC 9449 §4.2 asks for 96 bits of randomness; a longer one is no proof of more). */
const MAX_JTI = 256;

const utf8 = new TextEncoder();

/**
 * Creates the DPoP policy of a server: proofs verified as RFC 9449 §4.3 says. The proof is a JWT of
 * type `dpop+jwt`, signed with an accepted asymmetric algorithm by the public `jwk` of its header;
 * `htm` is the request's method, `htu` its URL without query and fragment (step 9; the request's
 * origin, or the resource's, then its path), `iat` within `windowSec` of now, `jti` a string, and
 * `ath` the base64url SHA-256 of the access token (§4.2). The thumbprint of its key (RFC 7638) is what
 * the token's `cnf.jkt` must equal (§6.1); the gate checks that, and replays, with the checks the
 * policy brings (`checks()`), so that only a server given a policy bundles them.
 *
 * @param options The mode, the algorithms, the resource, the window and the clock.
 * @returns The policy, for `ServerAuth.dpop`.
 */
export function dpopPolicy(options: DpopPolicyOptions): DpopPolicy {
  const algorithms = [...options.algorithms];
  const windowSec = options.windowSec ?? 60;
  const now = options.now ?? Date.now;
  const resourceOrigin = new URL(options.resource).origin;
  const policy: DpopPolicy = {
    capability: "dpop",
    required: options.mode === "required",
    algorithms,
    windowSec,
    nonce: options.nonce === true,
    async verifyProof(proof: string, request: DpopRequest): Promise<DpopProof> {
      let payload: Record<string, unknown>;
      let header: JWTHeaderParameters;
      try {
        ({ payload, protectedHeader: header } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt", algorithms }));
      } catch (error) {
        throw new Error(reasonOf(error));
      }
      const { jti, htm, htu, iat, ath, nonce } = payload;
      if (typeof jti !== "string" || jti === "" || jti.length > MAX_JTI) {
        throw new Error("the DPoP proof has no valid jti");
      }
      if (htm !== request.method) throw new Error("the DPoP proof is for another HTTP method");
      if (typeof htu !== "string" || !sameTarget(htu, request.url, resourceOrigin)) {
        throw new Error("the DPoP proof is for another URL");
      }
      if (typeof iat !== "number" || Math.abs(now() / 1000 - iat) > windowSec) {
        throw new Error("the DPoP proof's iat is outside the accepted window");
      }
      // At a token endpoint no access token goes with the proof (RFC 9449 §5): no `ath` to check.
      if (request.token !== undefined && ath !== base64urlEncode(await sha256(utf8.encode(request.token)))) {
        throw new Error("the DPoP proof's ath does not match the access token");
      }
      // The embedded key verified the signature: its thumbprint names it (RFC 7638 §3).
      const jkt = await calculateJwkThumbprint(header.jwk!, "sha256");
      return typeof nonce === "string" ? { jkt, jti, iat, nonce } : { jkt, jti, iat };
    },
    checks: (store: SharedStore): DpopChecks => dpopChecks(policy, store),
  };
  return policy;
}

/**
 * Whether `htu` names the request's target, query and fragment ignored (RFC 9449 §4.3 step 9), after
 * the WHATWG URL parser's normalization (RFC 3986 §6.2.2, §6.2.3: case, default port, dot segments).
 * The origin may be the request's or the resource's (a TLS-terminating proxy in front).
 */
function sameTarget(htu: string, url: string, resourceOrigin: string): boolean {
  let claimed: URL;
  try {
    claimed = new URL(htu);
  } catch {
    return false;
  }
  const target = new URL(url);
  if (claimed.pathname !== target.pathname) return false;
  return claimed.origin === target.origin || claimed.origin === resourceOrigin;
}

/** A reason safe to send back in `error_description`. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JOSEAlgNotAllowed) return "the DPoP proof's signature algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the DPoP proof's signature is invalid";
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === "typ") {
    return "the DPoP proof's typ is not dpop+jwt";
  }
  if (error instanceof errors.JWTExpired) return "the DPoP proof expired";
  return "the DPoP proof is malformed or invalid";
}
