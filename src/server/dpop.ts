/**
 * The gate's side of DPoP (RFC 9449): what a server's `auth` declares (a {@link DpopPolicy}: whether
 * proofs are required, which algorithms, how a proof is verified), and the checks the gate makes with
 * it on every wire: a proof for this request, a token bound to the proof's key (`cnf.jkt`, §6), no
 * bound token presented as a bearer one (§7.2), no proof used twice (§11.1), remembered in the
 * server's result store so that every instance sharing it refuses the replay, and, when the policy
 * asks for them, nonces the server issued (§8), kept in that store too so that any instance takes them.
 *
 * @module
 */
import type { AuthInfo } from "../core/call-context.ts";
import { ErrorCode, ProtocolError } from "../core/error.ts";
import type { ResultStore } from "../core/result-store.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { refusalWithChallenge } from "./challenge.ts";

/** The request a DPoP proof must be for (RFC 9449 §4.3, steps 8 to 10). */
export interface DpopRequest {
  /** The HTTP method (`htm`); `POST` for every gRPC call. */
  readonly method: string;
  /** The request's URL (`htu` is compared without its query and fragment). */
  readonly url: string;
  /** The access token presented with it (`ath` is its SHA-256, base64url). */
  readonly token: string;
}

/** A verified DPoP proof. */
export interface DpopProof {
  /** The JWK SHA-256 thumbprint (RFC 7638) of the proof's key, which the token's `cnf.jkt` must equal. */
  readonly jkt: string;
  /** The proof's unique identifier, remembered to refuse a replay. */
  readonly jti: string;
  /** The proof's `nonce` claim, if it has one (RFC 9449 §8). */
  readonly nonce?: string;
}

/**
 * How a server takes DPoP-bound access tokens (RFC 9449): `jwtAuth({ dpop })` makes one with `jose`.
 */
export interface DpopPolicy {
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
   * @param request The request it must be for.
   * @returns The proof's key thumbprint and `jti`.
   */
  verifyProof(proof: string, request: DpopRequest): Promise<DpopProof>;
}

/** Where replayed proofs are remembered in the result store, apart from results (whose ids are random). */
const REPLAY_PREFIX = "dpop-jti:";
/** Where issued nonces are kept in the result store. */
const NONCE_PREFIX = "dpop-nonce:";

/** Where a `use_dpop_nonce` refusal keeps the nonce to send (the `DPoP-Nonce` header, RFC 9449 §8). */
const NONCE: unique symbol = Symbol("mcplite.dpopNonce");

/** The server's DPoP nonces (RFC 9449 §8): one current nonce per instance, any issued one taken by all. */
export interface DpopNonces {
  /**
   * Refuses a proof without a nonce this server (or another instance sharing its store) issued and
   * that has not expired.
   *
   * @throws {ProtocolError} `unauthenticated` with a `use_dpop_nonce` challenge, carrying the nonce to
   *   send ({@link nonceOf}); `unavailable` when the store is down.
   */
  check(proof: DpopProof): Promise<void>;
}

/**
 * Creates the nonces of a server: an instance issues a random nonce (128 bits), kept in the store for
 * two windows and replaced after one, so a client's nonce stays good for at least one window.
 *
 * @param store The server's result store.
 * @param windowSec The policy's window.
 * @returns The nonces.
 */
export function createDpopNonces(store: ResultStore, windowSec: number): DpopNonces {
  let current: { readonly value: string; readonly until: number } | undefined;
  let issuing: Promise<string> | undefined;
  const issue = async (): Promise<string> => {
    const time = Date.now();
    if (current !== undefined && time < current.until) return current.value;
    const value = base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
    await store.set(NONCE_PREFIX + value, { status: "cancelled", at: time }, 2 * windowSec * 1000);
    current = { value, until: time + windowSec * 1000 };
    return value;
  };
  const fresh = () => (issuing ??= issue().finally(() => (issuing = undefined)));
  return {
    async check(proof) {
      try {
        if (proof.nonce !== undefined) {
          if (proof.nonce === current?.value && Date.now() < current.until) return;
          if (await store.get(NONCE_PREFIX + proof.nonce) !== undefined) return;
        }
        const nonce = await fresh();
        const reason = proof.nonce === undefined
          ? "send the server's DPoP nonce in the proof"
          : "the DPoP proof's nonce is unknown or expired";
        const error = refusalWithChallenge(ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
          error: "use_dpop_nonce",
          description: reason,
          scheme: "DPoP",
        });
        Object.defineProperty(error, NONCE, { value: nonce });
        throw error;
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        throw storeDown(error);
      }
    },
  };
}

/**
 * The nonce a refusal asks the client to use (the `DPoP-Nonce` header, RFC 9449 §8.1).
 *
 * @param error What a request was refused with.
 * @returns The nonce, or `undefined` when the refusal is not `use_dpop_nonce`.
 */
export function nonceOf(error: unknown): string | undefined {
  return (error as { [NONCE]?: string } | null)?.[NONCE];
}

function storeDown(error: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.Unavailable, "Service unavailable: the DPoP replay cache is unreachable", {
    data: { reason: "unavailable", retryAfterMs: 1000, processed: false },
    cause: error,
  });
}

/**
 * Verifies the `DPoP` header of a request that presents its token with the `DPoP` scheme (RFC 9449 §4.3
 * step 1: exactly one proof).
 *
 * @param policy The server's DPoP policy.
 * @param request The request.
 * @param token The access token it presents.
 * @returns The proof.
 * @throws {ProtocolError} `unauthenticated` with an `invalid_dpop_proof` challenge.
 */
export async function verifiedProof(policy: DpopPolicy, request: Request, token: string): Promise<DpopProof> {
  const header = request.headers.get("dpop");
  if (header === null || header.includes(",")) {
    throw invalidProof(header === null ? "send a DPoP proof (the DPoP header)" : "send exactly one DPoP proof");
  }
  try {
    return await policy.verifyProof(header.trim(), { method: request.method, url: request.url, token });
  } catch (error) {
    const reason = error instanceof Error && error.message !== "" ? error.message : "the DPoP proof is invalid";
    throw invalidProof(reason);
  }
}

/**
 * Checks a verified token against how it was presented: a DPoP-bound token (its `cnf.jkt`, RFC 9449
 * §6) only with a proof by that key, never as a bearer token (§7.2).
 *
 * @param info The caller the token was verified as (its `claims.cnf.jkt`).
 * @param proof The proof it came with, if it came with the `DPoP` scheme.
 * @throws {ProtocolError} `unauthenticated` with a `DPoP` `invalid_token` challenge.
 */
export function checkBinding(info: AuthInfo, proof: DpopProof | undefined): void {
  const cnf = info.claims?.cnf as { jkt?: unknown } | undefined;
  const jkt = typeof cnf?.jkt === "string" ? cnf.jkt : undefined;
  if (proof === undefined) {
    if (jkt !== undefined) {
      throw invalidToken("the access token is DPoP-bound: send it with the DPoP scheme and a DPoP proof");
    }
    return;
  }
  if (jkt === undefined) throw invalidToken("the access token is not DPoP-bound");
  if (jkt !== proof.jkt) throw invalidToken("the access token is bound to another key than the DPoP proof's");
}

/**
 * Remembers a proof's `jti` in the result store, refusing one seen already (RFC 9449 §11.1). The store's
 * `set` of an ended entry writes only where none is (first writer wins, atomically in every store), so
 * it is the set-if-absent this needs, shared by every instance that shares the store.
 *
 * @param store The server's result store.
 * @param policy The server's DPoP policy (how long a proof is accepted).
 * @param proof The proof.
 * @throws {ProtocolError} `unauthenticated` with an `invalid_dpop_proof` challenge for a replay;
 *   `unavailable` (503, retryable) when the store is down.
 */
export async function rememberProof(store: ResultStore, policy: DpopPolicy, proof: DpopProof): Promise<void> {
  let first: boolean;
  try {
    first = await store.set(
      `${REPLAY_PREFIX}${proof.jkt}:${proof.jti}`,
      { status: "cancelled", at: Date.now() },
      2 * policy.windowSec * 1000,
    );
  } catch (error) {
    throw storeDown(error);
  }
  if (!first) throw invalidProof("the DPoP proof was used already");
}

function invalidProof(reason: string): ProtocolError {
  return refusalWithChallenge(ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
    error: "invalid_dpop_proof",
    description: reason,
    scheme: "DPoP",
  });
}

function invalidToken(reason: string): ProtocolError {
  return refusalWithChallenge(ErrorCode.Unauthenticated, `Unauthorized: ${reason}`, {
    error: "invalid_token",
    description: reason,
    scheme: "DPoP",
  });
}

/**
 * The refusal of a token presented as a bearer token to a server that requires DPoP (RFC 9449 §7.1).
 *
 * @returns `unauthenticated` with a `DPoP` `invalid_token` challenge.
 */
export function bearerRefused(): ProtocolError {
  return invalidToken("this resource takes DPoP-bound access tokens only: send the DPoP scheme and a DPoP proof");
}
