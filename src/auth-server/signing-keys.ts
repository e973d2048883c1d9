/**
 * The authorization server's own signing keys: given (private JWKs or key pairs) or one ES256 key generated,
 * the first signing access tokens, all published as the JWK Set at `jwks_uri` (RFC 7517 §5; RFC 8414 §2)
 * with their public members only.
 *
 * @module
 */
// jose documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { CryptoKey as JoseKey, JWK } from "jose";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from "jose";
import type { AuthorizationServerOptions } from "./options.ts";

/** The keys, ready: what signs, and what is published. */
export interface SigningKeys {
  /** The key that signs, with its `kid` and `alg`. */
  readonly signer: { readonly key: JoseKey; readonly kid: string; readonly alg: string };
  /** The JWK Set of every key's public part. */
  readonly jwks: { readonly keys: readonly JWK[] };
}

/** A key as the options give it. */
type GivenKey = NonNullable<AuthorizationServerOptions["signingKeys"]>[number]["key"];

/** The members of a JWK that are private (RFC 7518 §6.2.2, §6.3.2; RFC 8037 §2). */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];

/** Algorithms by key: a JWK's `kty` and `crv`, or a Web Crypto key's algorithm. */
function defaultAlg(kty: string | undefined, crv: string | undefined): string {
  if (kty === "RSA") return "RS256";
  if (kty === "OKP") return "EdDSA";
  if (crv === "P-384") return "ES384";
  if (crv === "P-521") return "ES512";
  return "ES256";
}

/** An RSA key pair's JWS algorithm (RFC 7518 §3.3, §3.5): its Web Crypto algorithm and hash. */
function rsaAlg(algorithm: { name: string; hash?: { name: string } }): string | undefined {
  const bits = algorithm.hash?.name.replace("SHA-", "") ?? "256";
  if (algorithm.name === "RSASSA-PKCS1-v1_5") return `RS${bits}`;
  return algorithm.name === "RSA-PSS" ? `PS${bits}` : undefined;
}

/**
 * Refuses, when the server is made, a signing JWK that cannot sign: a symmetric one, or one without its
 * private part.
 *
 * @param given The `signingKeys` option.
 * @throws {TypeError} For such a key.
 */
export function checkSigningKeys(given: AuthorizationServerOptions["signingKeys"]): void {
  for (const { key } of given ?? []) {
    if ("privateKey" in key) continue;
    if (key.kty === "oct") throw new TypeError("authorizationServer: a signing key is asymmetric (not oct)");
    if (key.d === undefined) throw new TypeError("authorizationServer: a signing JWK needs its private part (d)");
  }
}

/**
 * Prepares the keys given, or generates one ES256 key pair (its private key not extractable).
 *
 * @param given The `signingKeys` option.
 * @returns The signer and the published set.
 */
export async function loadSigningKeys(given: AuthorizationServerOptions["signingKeys"]): Promise<SigningKeys> {
  const entries = given !== undefined && given.length > 0
    ? given
    : [{ key: await generateKeyPair("ES256") as unknown as GivenKey }];
  const loaded = await Promise.all(entries.map(async (entry) => {
    let publicJwk: JWK;
    let privateKey: JoseKey;
    if ("privateKey" in entry.key) {
      publicJwk = await exportJWK(entry.key.publicKey as unknown as JoseKey);
      privateKey = entry.key.privateKey as unknown as JoseKey;
      publicJwk.alg ??= rsaAlg(privateKey.algorithm as { name: string; hash?: { name: string } });
    } else {
      const jwk = entry.key as JWK;
      publicJwk = Object.fromEntries(Object.entries(jwk).filter(([name]) => !PRIVATE_MEMBERS.includes(name)));
      privateKey = await importJWK(jwk, entry.alg ?? jwk.alg ?? defaultAlg(jwk.kty, jwk.crv)) as JoseKey;
    }
    const alg = entry.alg ?? publicJwk.alg ?? defaultAlg(publicJwk.kty, publicJwk.crv);
    const kid = entry.kid ?? publicJwk.kid ?? await calculateJwkThumbprint(publicJwk, "sha256");
    const published: JWK = { ...publicJwk, kid, alg, use: "sig" };
    delete published.key_ops;
    delete published.ext;
    return { key: privateKey, kid, alg, published };
  }));
  const [first] = loaded;
  return {
    signer: { key: first.key, kid: first.kid, alg: first.alg },
    jwks: Object.freeze({ keys: Object.freeze(loaded.map((entry) => Object.freeze(entry.published))) }),
  };
}
