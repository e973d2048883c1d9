/**
 * Redeeming ID-JAGs at authorizationServer() (draft-ietf-oauth-identity-assertion-authz-grant §4.4, SEP-990):
 * the token it issues (RFC 9068, for the ID-JAG's resource, verified with the server's JWKS), and each
 * refusal with its RFC 6749 §5.2 error: another audience or resource, an untrusted issuer, expired,
 * replayed, forged, `alg` `none` or HMAC, scopes the resource does not offer, another client's, a wrong
 * secret, a grant type it does not take.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createLocalJWKSet, jwtVerify, SignJWT } from "jose";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import {
  AS_ISSUER,
  basic,
  claimsOf,
  idJag,
  idJagClaims,
  IDP,
  JWT_BEARER,
  RESOURCE,
  signer,
  tokenRequest,
  unsecured,
} from "../helpers/assertion-issuers.ts";

const idp = await signer();
const stranger = await signer();
const as = authorizationServer({
  issuer: AS_ISSUER,
  resources: {
    [RESOURCE]: { scopes: ["docs:read", "docs:write"] },
    "https://other.example.com/mcp": { scopes: ["x"] },
  },
  trustedIssuers: [{ issuer: IDP, jwks: idp.jwks, accepts: ["id-jag"] }],
  clients: { desktop: { secret: "desktop-secret" }, other: { secret: "other-secret" } },
});
const DESKTOP = basic("desktop", "desktop-secret");

/** Redeems an assertion as a client, with more parameters. */
async function redeem(
  assertion: string,
  params: Record<string, string> = {},
  authorization = DESKTOP,
): Promise<{ status: number; body: Record<string, string>; headers: Headers }> {
  const response = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion, ...params }, { authorization }));
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Asserts a refusal's status and error. */
async function refused(pending: ReturnType<typeof redeem>, error: string, status = 400): Promise<string> {
  const answer = await pending;
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(answer.body.error, error, JSON.stringify(answer.body));
  assert.equal(answer.headers.get("cache-control"), "no-store");
  return answer.body.error_description;
}

describe("authorizationServer(): ID-JAGs", () => {
  it("issues an RFC 9068 token for the ID-JAG's resource, its subject and client, with its scopes", async () => {
    const answer = await redeem(await idJag(idp, idJagClaims("desktop", { scope: "docs:read docs:write" })), {
      scope: "docs:read",
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.headers.get("cache-control"), "no-store");
    assert.equal(answer.body.token_type, "Bearer");
    assert.equal(answer.body.scope, "docs:read");
    assert.equal(Number(answer.body.expires_in), 300);
    const jwks = await (await as.fetch(new Request(`${AS_ISSUER}/jwks`))).json();
    const { payload, protectedHeader } = await jwtVerify(answer.body.access_token, createLocalJWKSet(jwks), {
      issuer: AS_ISSUER,
      audience: RESOURCE,
      typ: "at+jwt",
    });
    assert.equal(protectedHeader.alg, "ES256");
    assert.deepEqual([payload.sub, payload.client_id, payload.scope, payload.cnf], [
      "ada",
      "desktop",
      "docs:read",
      undefined,
    ]);
    assert.equal(payload.exp! - payload.iat!, 300);
    assert.equal(typeof payload.jti, "string");
  });

  it("refuses an ID-JAG for another audience, or with several", async () => {
    assert.match(
      await refused(redeem(await idJag(idp, idJagClaims("desktop", { aud: "https://as.other" }))), "invalid_grant"),
      /audience/,
    );
    const two = idJagClaims("desktop", { aud: [AS_ISSUER, "https://as.other"] });
    assert.match(await refused(redeem(await idJag(idp, two)), "invalid_grant"), /several audiences/);
  });

  it("refuses an ID-JAG for a resource this server does not serve, or other than the one asked for", async () => {
    const elsewhere = idJagClaims("desktop", { resource: "https://evil.example.com/mcp" });
    assert.match(await refused(redeem(await idJag(idp, elsewhere)), "invalid_grant"), /does not serve/);
    // Resource injection: the request's resource picks among the ID-JAG's, never adds one.
    const injected = redeem(await idJag(idp, idJagClaims("desktop")), { resource: "https://other.example.com/mcp" });
    assert.match(await refused(injected, "invalid_grant"), /not for the resource/);
    const unknown = redeem(await idJag(idp, idJagClaims("desktop")), { resource: "https://evil.example.com/mcp" });
    await refused(unknown, "invalid_target");
    await refused(redeem(await idJag(idp, idJagClaims("desktop", { resource: undefined }))), "invalid_grant");
  });

  it("issues the token for the ID-JAG's resource as the ID-JAG writes it", async () => {
    const slashed = idJagClaims("desktop", { resource: `${RESOURCE}/` });
    const answer = await redeem(await idJag(idp, slashed));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(claimsOf(answer.body.access_token).aud, `${RESOURCE}/`);
    const several = idJagClaims("desktop", { resource: [RESOURCE, "https://other.example.com/mcp"] });
    await refused(redeem(await idJag(idp, several)), "invalid_target"); // which one? the request says
    const picked = await redeem(await idJag(idp, several), { resource: "https://other.example.com/mcp", scope: "" });
    assert.equal(claimsOf(picked.body.access_token).aud, "https://other.example.com/mcp");
  });

  it("refuses an ID-JAG from an untrusted issuer, or one trusted but signed by another key", async () => {
    const untrusted = idJagClaims("desktop", { iss: "https://idp.evil.example" });
    assert.match(await refused(redeem(await idJag(stranger, untrusted)), "invalid_grant"), /not trusted/);
    // Forged: the trusted issuer's name, a stranger's key (same kid).
    assert.match(await refused(redeem(await idJag(stranger, idJagClaims("desktop"))), "invalid_grant"), /signature/);
  });

  it("refuses alg none and HMAC", async () => {
    assert.match(await refused(redeem(unsecured(idJagClaims("desktop"))), "invalid_grant"), /algorithm|malformed/);
    const hmac = await new SignJWT(idJagClaims("desktop")).setProtectedHeader({ alg: "HS256", typ: "oauth-id-jag+jwt" })
      .sign(new TextEncoder().encode("a-shared-secret-of-thirty-two-bytes!"));
    assert.match(await refused(redeem(hmac), "invalid_grant"), /algorithm/);
  });

  it("refuses an expired ID-JAG, one issued in the future, living too long or without iat or jti", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = idJagClaims("desktop", { iat: now - 900, exp: now - 600 });
    assert.match(await refused(redeem(await idJag(idp, expired)), "invalid_grant"), /expired/);
    const future = idJagClaims("desktop", { iat: now + 600, exp: now + 900 });
    assert.match(await refused(redeem(await idJag(idp, future)), "invalid_grant"), /future/);
    const long = idJagClaims("desktop", { iat: now, exp: now + 7200 });
    assert.match(
      await refused(redeem(await idJag(idp, long)), "invalid_grant"),
      /lives 7200 s \(exp - iat\): .* at most 3600 s \(trustedIssuers\[0\]\.maxLifetimeSec sets it\)/,
    );
    const undated = idJagClaims("desktop", { iat: undefined });
    assert.match(await refused(redeem(await idJag(idp, undated)), "invalid_grant"), /has no iat/);
    await refused(redeem(await idJag(idp, idJagClaims("desktop", { jti: undefined }))), "invalid_grant");
  });

  it("refuses a replayed ID-JAG (its jti used already), and takes the next one", async () => {
    const jag = await idJag(idp, idJagClaims("desktop"));
    assert.equal((await redeem(jag)).status, 200);
    assert.match(await refused(redeem(jag), "invalid_grant"), /used already/);
    assert.equal((await redeem(await idJag(idp, idJagClaims("desktop")))).status, 200);
  });

  it("leaves an ID-JAG refused for its scope to a correct request", async () => {
    const jag = await idJag(idp, idJagClaims("desktop"));
    await refused(redeem(jag, { scope: "docs:write" }), "invalid_scope"); // beyond the ID-JAG's scope
    assert.equal((await redeem(jag)).status, 200);
  });

  it("refuses scopes the resource does not offer, never drops them", async () => {
    const jag = await idJag(idp, idJagClaims("desktop", { scope: "docs:read admin" }));
    assert.match(await refused(redeem(jag), "invalid_scope"), /does not offer the scope admin/);
  });

  it("refuses an ID-JAG presented by another client, a wrong secret, no client authentication", async () => {
    const jag = await idJag(idp, idJagClaims("desktop"));
    assert.match(await refused(redeem(jag, {}, basic("other", "other-secret")), "invalid_grant"), /another client/);
    const wrong = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion: jag }, {
      authorization: basic("desktop", "not-the-secret"),
    }));
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).error, "invalid_client");
    assert.match(wrong.headers.get("www-authenticate") ?? "", /^Basic /);
    const anonymous = await as.fetch(tokenRequest({ grant_type: JWT_BEARER, assertion: jag, client_id: "desktop" }));
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error, "invalid_client");
    assert.equal((await redeem(jag)).status, 200); // none of those used it up
  });

  it("refuses a grant type it does not take, and an assertion of another type", async () => {
    const code = await as.fetch(
      tokenRequest({ grant_type: "authorization_code", code: "x" }, { authorization: DESKTOP }),
    );
    assert.equal(code.status, 400);
    assert.equal((await code.json()).error, "unsupported_grant_type");
    // No typ, or a plain JWT's, from an IdP trusted for ID-JAGs only: an ID-JAG with the wrong typ, refused as one.
    for (const header of [{}, { typ: "JWT" }]) {
      const mistyped = await idp.sign(idJagClaims("desktop"), header);
      assert.match(await refused(redeem(mistyped), "invalid_grant"), /^the ID-JAG's typ is not oauth-id-jag\+jwt$/);
    }
  });
});
