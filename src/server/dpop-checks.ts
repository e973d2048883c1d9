/**
 * The gate's DPoP checks (RFC 9449) that a {@link DpopPolicy} brings (`jwtAuth({ dpop })`'s does):
 * a proof for this request, a token bound to the proof's key (`cnf.jkt`, §6), no bound token
 * presented as a bearer one (§7.2), no proof used twice (§11.1), remembered in the server's result
 * store so that every instance sharing it refuses the replay, and, when the policy asks for them,
 * nonces the server issued (§8), kept in that store too so that any instance takes them. Only the
 * policy's module imports this one: a server without DPoP bundles none of it.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import { ProtocolError } from "../errors/error.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { storeSpace } from "../store/store-space.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { refusalWithChallenge } from "./challenge.ts";
import type { DpopChecks, DpopPolicy, DpopProof } from "./dpop.ts";
import { mayPredate, memoryStart } from "./dpop-epoch.ts";

/**
 * The gate's checks with a policy, for a server whose used proofs and nonces live in `store`: what a
 * policy's `checks(store)` returns.
 *
 * @param policy The policy.
 * @param store The server's shared store.
 * @returns The checks.
 */
export function dpopChecks(policy: DpopPolicy, store: SharedStore): DpopChecks {
  // Nonces are asked for on every proof with `policy.nonce`, and without it only of a proof that may
  // predate the store's memory of proofs (dpop-epoch.ts).
  const nonces = createDpopNonces(store, policy.windowSec);
  return {
    async presented(request, token, scheme) {
      if (scheme !== "DPoP") {
        if (policy.required) throw bearerRefused();
        return undefined;
      }
      const proof = await verifiedProof(policy, request, token);
      if (policy.nonce === true) await nonces.check(proof, 0);
      await checkMemory(store, policy, proof, nonces);
      return proof;
    },
    async bound(info, proof) {
      checkBinding(info, proof);
      if (proof !== undefined) await rememberProof(store, policy, proof);
    },
    nonceOf,
  };
}

/** Where a `use_dpop_nonce` refusal keeps the nonce to send (the `DPoP-Nonce` header, RFC 9449 §8). */
const NONCE: unique symbol = Symbol("mcplite.dpopNonce");

/** The server's DPoP nonces (RFC 9449 §8): one current nonce per instance, any issued one taken by all. */
interface DpopNonces {
  /**
   * Refuses a proof without a nonce this server (or another instance sharing its store) issued at or
   * after `since` (ms since the epoch) and that has not expired.
   *
   * @throws {ProtocolError} `unauthenticated` with a `use_dpop_nonce` challenge, carrying the nonce to
   *   send ({@link nonceOf}); `unavailable` when the store is down.
   */
  check(proof: DpopProof, since: number): Promise<void>;
}

/**
 * Creates the nonces of a server: an instance issues a random nonce (128 bits), kept in the store for
 * two windows and replaced after one, so a client's nonce stays good for at least one window.
 *
 * @param store The server's shared store.
 * @param windowSec The policy's window.
 * @returns The nonces.
 */
function createDpopNonces(store: SharedStore, windowSec: number): DpopNonces {
  const issued = storeSpace<number>(store, "dpop-nonce"); // each nonce issued, with when
  let current: { readonly value: string; readonly at: number; readonly until: number } | undefined;
  let issuing: Promise<string> | undefined;
  const issue = async (): Promise<string> => {
    const time = Date.now();
    if (current !== undefined && time < current.until) return current.value;
    const value = base64urlEncode(crypto.getRandomValues(new Uint8Array(16)));
    await issued.put(value, time, 2 * windowSec * 1000);
    current = { value, at: time, until: time + windowSec * 1000 };
    return value;
  };
  const fresh = () => (issuing ??= issue().finally(() => (issuing = undefined)));
  return {
    async check(proof, since) {
      // This instance's nonce from before the store's memory began is not one to take on trust, nor to give.
      if (current !== undefined && current.at < since) current = undefined;
      try {
        if (proof.nonce !== undefined) {
          if (proof.nonce === current?.value && Date.now() < current.until) return;
          // In the store, it was issued since the store's memory began (an emptied store holds none before).
          if (await issued.get(proof.nonce) !== undefined) return;
        }
        const nonce = await fresh();
        const reason = proof.nonce === undefined
          ? "send the server's DPoP nonce in the proof"
          : "the DPoP proof's nonce is unknown or expired";
        const error = refusalWithChallenge("unauthenticated", `Unauthorized: ${reason}`, {
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
function nonceOf(error: unknown): string | undefined {
  return (error as { [NONCE]?: string } | null)?.[NONCE];
}

function storeDown(error: unknown): ProtocolError {
  return new ProtocolError("unavailable", "Service unavailable: the DPoP replay cache is unreachable", {
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
 * @param token The access token it presents (none at a token endpoint).
 * @returns The proof.
 * @throws {ProtocolError} `unauthenticated` with an `invalid_dpop_proof` challenge.
 */
async function verifiedProof(policy: DpopPolicy, request: Request, token: string | undefined): Promise<DpopProof> {
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
function checkBinding(info: AuthInfo, proof: DpopProof | undefined): void {
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
 * Takes a proof only where the store still remembers what it took: a store that came back empty has
 * forgotten the proofs it took, so one that may predate its memory (dpop-epoch.ts) is taken only with a
 * nonce issued since (RFC 9449 §8), which no proof from before can carry. Checked before the proof is
 * remembered, so a client may present it again once it has learnt the nonce (a refused WebSocket
 * upgrade is asked again with a fetch, to read the challenge).
 *
 * @param store The server's shared store.
 * @param policy The server's DPoP policy (its window).
 * @param proof The proof.
 * @param nonces The server's nonces.
 * @throws {ProtocolError} `unauthenticated` with a `use_dpop_nonce` challenge; `unavailable` (503,
 *   retryable) when the store is down.
 */
async function checkMemory(store: SharedStore, policy: DpopPolicy, proof: DpopProof, nonces: DpopNonces) {
  let start: number;
  try {
    start = await memoryStart(store);
  } catch (error) {
    throw storeDown(error);
  }
  if (mayPredate(proof.iat, start, policy.windowSec)) await nonces.check(proof, start);
}

/**
 * Remembers a proof's `jti` in the shared store's `dpop-jti` namespace, refusing one seen already (RFC 9449 §11.1):
 * taken once (`putIfAbsent`, atomically in every store), by every instance that shares the store.
 *
 * @param store The server's shared store.
 * @param policy The server's DPoP policy (how long a proof is accepted).
 * @param proof The proof.
 * @throws {ProtocolError} `unauthenticated` with an `invalid_dpop_proof` challenge for a replay;
 *   `unavailable` (503, retryable) when the store is down.
 */
async function rememberProof(store: SharedStore, policy: DpopPolicy, proof: DpopProof): Promise<void> {
  let first: boolean;
  try {
    first = await storeSpace<true>(store, "dpop-jti").putIfAbsent(
      `${proof.jkt}:${proof.jti}`,
      true,
      2 * policy.windowSec * 1000,
    );
  } catch (error) {
    throw storeDown(error);
  }
  if (!first) throw invalidProof("the DPoP proof was used already");
}

function invalidProof(reason: string): ProtocolError {
  return refusalWithChallenge("unauthenticated", `Unauthorized: ${reason}`, {
    error: "invalid_dpop_proof",
    description: reason,
    scheme: "DPoP",
  });
}

function invalidToken(reason: string): ProtocolError {
  return refusalWithChallenge("unauthenticated", `Unauthorized: ${reason}`, {
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
function bearerRefused(): ProtocolError {
  return invalidToken("this resource takes DPoP-bound access tokens only: send the DPoP scheme and a DPoP proof");
}
