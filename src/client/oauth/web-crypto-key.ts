/**
 * The Web Crypto key types of the client's options, named without the DOM library: Node's own type
 * setup (`@types/node` 20 to 24, no `dom` in `lib`) declares no global `CryptoKey` type, so a
 * declaration naming it fails a consumer's `tsc` with `skipLibCheck: false`.
 *
 * @module
 */

/**
 * A Web Crypto key (W3C Web Cryptography API, the CryptoKey interface): the key type of the runtime
 * the consumer's types describe, read from what its `crypto.subtle.generateKey()` resolves with (the
 * DOM's or Deno's `CryptoKey`, Node's `webcrypto.CryptoKey`), else the interface's own properties.
 *
 * @example A key for `private_key_jwt`
 * ```ts
 * import type { WebCryptoKey } from "@mcplite/sdk/client/auth";
 *
 * const { privateKey }: { privateKey: WebCryptoKey } = await crypto.subtle.generateKey(
 *   { name: "ECDSA", namedCurve: "P-256" },
 *   false,
 *   ["sign", "verify"],
 * );
 * ```
 */
export type WebCryptoKey = typeof globalThis extends {
  // deno-lint-ignore no-explicit-any -- any arguments: only the resolved type is read
  crypto: { subtle: { generateKey(...args: any[]): Promise<infer Generated> } };
} ? Extract<Generated, { type: string }>
  // What every key has, for a setup that declares no Web Crypto at all.
  : {
    readonly algorithm: { name: string };
    readonly extractable: boolean;
    readonly type: string;
    readonly usages: string[];
  };

/**
 * A Web Crypto key pair (W3C Web Cryptography API, the CryptoKeyPair dictionary), of {@link WebCryptoKey}s.
 *
 * @example A DPoP key pair of your own
 * ```ts
 * import type { WebCryptoKeyPair } from "@mcplite/sdk/client/auth";
 *
 * const keyPair: WebCryptoKeyPair = await crypto.subtle.generateKey(
 *   { name: "ECDSA", namedCurve: "P-256" },
 *   false,
 *   ["sign", "verify"],
 * );
 * ```
 */
export interface WebCryptoKeyPair {
  /** The public key (extractable: DPoP proofs carry it as a JWK, RFC 9449 §4.2). */
  publicKey: WebCryptoKey;
  /** The private key, which signs. */
  privateKey: WebCryptoKey;
}
