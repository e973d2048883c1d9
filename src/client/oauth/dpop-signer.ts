/**
 * DPoP on the client (RFC 9449): the key pair, and resource requests that carry a proof and the
 * `Authorization: DPoP` scheme, retried once with the server's nonce. oauth4webapi signs the proofs
 * (`htm`, `htu`, `iat`, `jti`, `ath`, `nonce`) and remembers the nonces per origin.
 *
 * @module
 */
import * as o4w from "oauth4webapi";
import type { FetchLike } from "../http.ts";
import type { DPoPOptions } from "./oauth-options.ts";
import type { WebCryptoKeyPair } from "./web-crypto-key.ts";

/** The algorithms a generated key may use, the client's preference first. */
const ALGORITHMS = ["ES256", "EdDSA", "ES384", "ES512", "PS256", "RS256"] as const;

/**
 * The key pair of a session: the one given, else a new one for the first algorithm the authorization
 * server accepts (`dpop_signing_alg_values_supported`, RFC 9449 §5.1), non-extractable unless asked.
 *
 * @param options The `dpop` option.
 * @param as The authorization server's metadata, when known.
 * @returns The key pair.
 */
export async function dpopKeyPair(
  options: true | DPoPOptions,
  as: o4w.AuthorizationServer | undefined,
): Promise<WebCryptoKeyPair> {
  const given = options === true ? {} : options;
  if (given.keyPair !== undefined) return given.keyPair;
  const supported = as?.dpop_signing_alg_values_supported;
  const alg = given.alg ??
    (supported === undefined ? "ES256" : ALGORITHMS.find((a) => supported.includes(a)) ?? "ES256");
  // oauth4webapi's type is node:crypto's when Node's types are loaded; it is the Web Crypto key pair.
  return await o4w.generateKeyPair(alg, { extractable: given.extractable ?? false }) as unknown as WebCryptoKeyPair;
}

/**
 * Creates the DPoP handle of a key pair: it signs the proofs and keeps the nonces servers send.
 *
 * @param keyPair The key pair.
 * @returns The handle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dpopHandle, dpopKeyPair } from "./dpop-signer.ts";
 * const keyPair = await dpopKeyPair(true, undefined); // ES256, private key non-extractable
 * assert.equal(keyPair.privateKey.extractable, false);
 * const handle = dpopHandle(keyPair);
 * assert.equal((await handle.calculateThumbprint()).length, 43); // the JWK SHA-256 thumbprint (RFC 7638)
 * ```
 */
export function dpopHandle(keyPair: WebCryptoKeyPair): o4w.DPoPHandle {
  // The client only lends its clock skew (none here).
  return o4w.DPoP({}, keyPair as unknown as o4w.CryptoKeyPair);
}

/**
 * Sends a resource request with a DPoP-bound token: `Authorization: DPoP <token>` and a fresh proof
 * (RFC 9449 §7.1); a `use_dpop_nonce` challenge is answered once with the nonce the server sent
 * (RFC 9449 §9). Other challenges come back as the response, for the caller to handle.
 *
 * @param fetcher The fetch function.
 * @param request The request (not consumed).
 * @param token The access token.
 * @param handle The DPoP handle.
 * @returns The response.
 */
export async function sendWithProof(
  fetcher: FetchLike,
  request: Request,
  token: string,
  handle: o4w.DPoPHandle,
): Promise<Response> {
  const url = new URL(request.url);
  // oauth4webapi builds the two headers; the request goes out as it is, with them, through our fetch.
  const send = (_url: string, init: o4w.CustomFetchOptions<string, unknown>): Promise<Response> => {
    const made = new Headers(init.headers);
    const attempt = request.clone();
    attempt.headers.set("authorization", made.get("authorization")!);
    attempt.headers.set("dpop", made.get("dpop")!);
    return Promise.resolve(fetcher(attempt));
  };
  for (let retried = false;; retried = true) {
    try {
      return await o4w.protectedResourceRequest(token, request.method, url, new Headers(), null, {
        DPoP: handle,
        [o4w.customFetch]: send,
        // The URL is the one the user connects to; oauth4webapi's https-only rule is for OAuth endpoints.
        [o4w.allowInsecureRequests]: true,
      });
    } catch (error) {
      if (!(error instanceof o4w.WWWAuthenticateChallengeError)) throw error;
      if (!retried && o4w.isDPoPNonceError(error)) {
        await error.response.body?.cancel().catch(() => {});
        continue;
      }
      return error.response;
    }
  }
}
