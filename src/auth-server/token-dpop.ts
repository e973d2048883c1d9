/**
 * DPoP at the token endpoint (RFC 9449 §5): a `DPoP` proof with a token request is verified by the checks a
 * protected resource makes (`dpop-proof.ts`, `dpop-checks.ts`), without `ath` (no access token yet), and the token
 * issued is bound to its key (`cnf.jkt`, §6.1). Refusals are `invalid_dpop_proof` or `use_dpop_nonce` (§8), 400.
 * Without `dpopNonce` no nonce is asked for, not even in a new store's first minute (why: {@link tokenDpop}).
 *
 * @module
 */
import { ASYMMETRIC_ALGORITHMS } from "../auth/jwt-auth.ts";
import { dpopPolicy } from "../auth/dpop-proof.ts";
import { ProtocolError } from "../errors/error.ts";
import { challengeOf } from "../server/challenge.ts";
import type { DpopProof } from "../server/dpop.ts";
import type { ServerConfig } from "./server-config.ts";
import { storeDown } from "./replay.ts";
import { TokenError } from "./oauth-error.ts";

/** The token endpoint's DPoP checks. */
export interface TokenDpop {
  /** The algorithms proofs may use (`dpop_signing_alg_values_supported`). */
  readonly algorithms: readonly string[];
  /**
   * Verifies the request's proof, if it has one.
   *
   * @throws {TokenError} `invalid_dpop_proof`, `use_dpop_nonce` (with `DPoP-Nonce`), or 503.
   */
  proofOf(request: Request): Promise<DpopProof | undefined>;
  /**
   * Marks a proof used, once everything else about the request is checked (RFC 9449 §11.1).
   *
   * @throws {TokenError} `invalid_dpop_proof` for a proof used already, or 503.
   */
  use(proof: DpopProof): Promise<void>;
}

/**
 * Creates the token endpoint's DPoP checks: `typ`, the signature by its `jwk`, `htm` `POST`, `htu` the token
 * endpoint, `iat` within 60 s, one use across the instances sharing the store, and nonces with `dpopNonce: true`.
 * Without it no nonce is asked for, not even of a proof that may predate the store's memory of proofs, which a
 * resource asks one of (dpop-epoch.ts: a store that came back empty, or a new one, for its first 60 s): at a
 * resource a replayed proof with its token is access; here it only earns a token bound to the proof's key, which
 * the replayer does not hold, and the grants used once (ID-JAGs, client assertions) keep their own memory.
 *
 * @param config The server's configuration (the token endpoint, the store).
 * @param nonce Whether proofs must carry a nonce this server issued.
 * @returns The checks.
 */
export function tokenDpop(config: ServerConfig, nonce: boolean): TokenDpop {
  const policy = dpopPolicy({
    mode: "allowed",
    algorithms: ASYMMETRIC_ALGORITHMS,
    resource: config.tokenEndpoint,
    nonce,
  });
  const checks = policy.checks(config.store);
  /** Verifies the one proof a request without nonces carries (§4.3), as the checks would but for the memory guard. */
  const verifiedProof = async (header: string, request: Request): Promise<DpopProof> => {
    if (header.includes(",")) throw new TokenError("invalid_dpop_proof", "send exactly one DPoP proof");
    try {
      return await policy.verifyProof(header.trim(), { method: request.method, url: request.url, token: undefined });
    } catch (error) {
      const reason = error instanceof Error && error.message !== "" ? error.message : "the DPoP proof is invalid";
      throw new TokenError("invalid_dpop_proof", reason);
    }
  };
  return {
    algorithms: policy.algorithms,
    async proofOf(request) {
      const header = request.headers.get("dpop");
      if (header === null) return undefined;
      if (!nonce) return await verifiedProof(header, request);
      try {
        return await checks.presented(request, undefined, "DPoP");
      } catch (error) {
        throw asTokenError(error, checks.nonceOf(error));
      }
    },
    async use(proof) {
      try {
        // The token about to be issued is bound to the proof's key: the binding holds, the proof is remembered.
        await checks.bound({ claims: { cnf: { jkt: proof.jkt } } }, proof);
      } catch (error) {
        throw asTokenError(error, undefined);
      }
    },
  };
}

/** A refusal of the checks, as the token endpoint answers it. */
function asTokenError(error: unknown, nonce: string | undefined): unknown {
  const challenge = challengeOf(error);
  if (challenge?.error === "use_dpop_nonce" && nonce !== undefined) {
    return new TokenError("use_dpop_nonce", challenge.description ?? "send the server's DPoP nonce", {
      headers: { "dpop-nonce": nonce },
    });
  }
  if (challenge !== undefined) {
    return new TokenError("invalid_dpop_proof", challenge.description ?? "the DPoP proof is invalid");
  }
  if (error instanceof ProtocolError && error.code === "unavailable") return storeDown(error);
  return error;
}
