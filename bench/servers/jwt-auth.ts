/**
 * What `before-after.ts --jwt` authenticates with: an ES256 key, a token of it for `http://localhost` (the bench's
 * origin), the key set given to `jwtAuth({ jwks })` of either checkout, and an issuer on a loopback listener that
 * publishes its RFC 8414 metadata and keys, for `jwtAuth({ issuer, resource })` to find them (issue 79), with a token
 * of its own. Every token lives an hour: longer than a run.
 *
 * @module
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { serve } from "../../mod.ts";
import { ORIGIN } from "../requests.ts";

/** The issuer of the tokens checked against a given key set. */
export const STATIC_ISSUER = "https://auth.example.com";

/** The keys, the tokens, and the listener that publishes the discovered issuer's metadata. */
export interface JwtBench {
  /** The public key set, for `jwtAuth({ jwks })`. */
  readonly jwks: { keys: object[] };
  /** A token of {@link STATIC_ISSUER} for the bench's origin. */
  readonly token: string;
  /** The issuer on the loopback listener. */
  readonly issuer: string;
  /** A token of that issuer for the bench's origin. */
  readonly discoveredToken: string;
  /** Stops the listener. */
  close(): Promise<void>;
}

/** Makes the key, serves the discovered issuer on 127.0.0.1, signs both tokens. */
export async function jwtBench(): Promise<JwtBench> {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "bench-1", alg: "ES256" }] };
  const published = { issuer: "" };
  const listener = await serve({
    fetch: (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === "/jwks") return Response.json(jwks);
      if (pathname === "/.well-known/oauth-authorization-server") {
        return Response.json({ issuer: published.issuer, jwks_uri: `${published.issuer}/jwks` });
      }
      return new Response(null, { status: 404 });
    },
  }, { port: 0, hostname: "127.0.0.1", quiet: true });
  published.issuer = listener.url;
  const sign = (issuer: string) =>
    new SignJWT({ scope: "bench", client_id: "bench" }).setProtectedHeader({
      alg: "ES256",
      typ: "at+jwt",
      kid: "bench-1",
    })
      .setIssuer(issuer).setAudience(ORIGIN).setSubject("bench").setIssuedAt().setExpirationTime("1h")
      .sign(privateKey);
  return {
    jwks,
    token: await sign(STATIC_ISSUER),
    issuer: listener.url,
    discoveredToken: await sign(listener.url),
    close: () => listener.close(),
  };
}
