/**
 * What a server's `auth` declares of DPoP (RFC 9449): a {@link DpopPolicy} (whether proofs are
 * required, which algorithms, how a proof is verified) that brings the gate's checks with it
 * ({@link DpopChecks}, made in `dpop-checks.ts`), so that a server without DPoP bundles none of them.
 * Types only.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import type { SharedStore } from "../store/shared-store.ts";
import type { Capability } from "./server-capability.ts";

/** A verified DPoP proof. */
export interface DpopProof {
  /** The JWK SHA-256 thumbprint (RFC 7638) of the proof's key, which the token's `cnf.jkt` must equal. */
  readonly jkt: string;
  /** The proof's unique identifier, remembered to refuse a replay. */
  readonly jti: string;
  /** The proof's `nonce` claim, if it has one (RFC 9449 §8). */
  readonly nonce?: string;
  /**
   * The proof's `iat`, in seconds since the epoch. Without it, every proof in the first two windows
   * after the replay store came back empty must carry a nonce; with it, only those issued before.
   */
  readonly iat?: number;
}

/**
 * How a server takes DPoP-bound access tokens (RFC 9449): `jwtAuth({ dpop })` makes one with `jose`. It is
 * what `ServerAuth.dpop` holds, opaque outside the package (read here as `auth.dpop as DpopPolicy`).
 */
export interface DpopPolicy extends Capability<"dpop"> {
  /** Whether every token must be DPoP-bound (`"required"`), or bearer tokens are taken too (`"allowed"`). */
  readonly required: boolean;
  /** The JWS algorithms of proofs it accepts (the challenge's `algs`, the metadata's `dpop_signing_alg_values_supported`). */
  readonly algorithms: readonly string[];
  /** How long a proof is accepted, in seconds: its `iat` within this of the server's clock; replays are remembered this long, twice. */
  readonly windowSec: number;
  /**
   * Whether proofs must carry a nonce the server issued (RFC 9449 §8): a proof without one, or with one
   * unknown or expired, is refused with `use_dpop_nonce` and a fresh nonce in the `DPoP-Nonce` header.
   */
  readonly nonce?: boolean;
  /**
   * Verifies a proof (RFC 9449 §4.3): its type, its signature by the `jwk` of its header, `htm`,
   * `htu`, `iat` and `ath`. Throws an `Error` whose message (never the proof) says what is wrong.
   *
   * @param proof The `DPoP` header's value.
   * @param request The request it must be for (RFC 9449 §4.3, steps 8 to 10): its HTTP `method` (`htm`; `POST` for
   *   every gRPC call), its `url` (`htu` is compared without its query and fragment), and the access `token` presented
   *   with it (`ath` is its SHA-256, base64url); no token at a token endpoint (§5), where `ath` is not checked.
   * @returns The proof's key thumbprint and `jti`.
   */
  verifyProof(
    proof: string,
    request: { readonly method: string; readonly url: string; readonly token: string | undefined },
  ): Promise<DpopProof>;
  /**
   * The checks the gate makes with this policy on every wire, for a server whose used proofs and issued
   * nonces live in `store` (its result store, shared by its instances). `jwtAuth({ dpop })`'s policy
   * brings them: the gate of a server without DPoP has none of their code.
   *
   * @param store Where used proofs (RFC 9449 §11.1) and issued nonces (§8) are kept.
   * @returns The checks.
   */
  checks(store: SharedStore): DpopChecks;
}

/**
 * The gate's DPoP checks (RFC 9449) for one server: a proof for this request (§4.3), a token bound to
 * the proof's key (`cnf.jkt`, §6), no bound token presented as a bearer one (§7.2), no proof used twice
 * (§11.1), and, when the policy asks for them, nonces the server issued (§8).
 */
export interface DpopChecks {
  /**
   * Checks how a request presents its token, before the token is verified: with the `DPoP` scheme, a
   * proof for this request (and a nonce the server issued, when asked for); with `Bearer`, refused when
   * DPoP is required (§7.1).
   *
   * @param request The request (its `DPoP` header, method and URL).
   * @param token The access token it presents (none at a token endpoint, RFC 9449 §5).
   * @param scheme `"DPoP"` when it presents the token with that scheme.
   * @returns The proof, or `undefined` for a bearer presentation that is allowed.
   * @throws {ProtocolError} (rejects) `unauthenticated` with a `DPoP` challenge; `unavailable` when the
   *   store is down.
   */
  presented(request: Request, token: string | undefined, scheme: "DPoP" | undefined): Promise<DpopProof | undefined>;
  /**
   * Checks the verified token against its presentation (§6, §7.2) and remembers the proof (§11.1).
   *
   * @param info The caller the token was verified as (its `claims.cnf.jkt`).
   * @param proof What {@link DpopChecks.presented} resolved with.
   * @throws {ProtocolError} (rejects) `unauthenticated` with a `DPoP` challenge; `unavailable` when the
   *   store is down.
   */
  bound(info: AuthInfo, proof: DpopProof | undefined): Promise<void>;
  /**
   * The nonce a refusal asks the client to use (the `DPoP-Nonce` header, RFC 9449 §8.1).
   *
   * @param error What a request was refused with.
   * @returns The nonce, or `undefined` when the refusal is not `use_dpop_nonce`.
   */
  nonceOf(error: unknown): string | undefined;
}

/** The request a DPoP proof must be for: {@link DpopPolicy.verifyProof}'s second parameter. */
export type DpopRequest = Parameters<DpopPolicy["verifyProof"]>[1];
