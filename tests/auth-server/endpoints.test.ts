/**
 * authorizationServer()'s documents and its token endpoint's edges: the RFC 8414 metadata (with the ID-JAG
 * grant profile, and an authorization endpoint that refuses every response type) at the path-inserted
 * well-known URI of an issuer with a path (§3.1), the JWK Set with
 * public keys only, 404 elsewhere; a token request by GET, of another content type, too large, with a
 * parameter twice, with two client authentications, or malformed Basic credentials, answered cleanly.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exportJWK, generateKeyPair } from "jose";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import { IDP, JWT_BEARER, PLATFORM, RESOURCE, signer, WORKLOAD_SUBJECT } from "../helpers/assertion-issuers.ts";

const ISSUER = "https://example.com/as";
const idp = await signer();
const platform = await signer("p1");
const { privateKey } = await generateKeyPair("ES384", { extractable: true });
const as = authorizationServer({
  issuer: ISSUER,
  resources: { [RESOURCE]: { scopes: ["docs:read", "docs:write"] } },
  trustedIssuers: [
    { issuer: IDP, jwks: idp.jwks, accepts: ["id-jag"] },
    { issuer: PLATFORM, jwks: platform.jwks, accepts: ["workload"] },
  ],
  clients: {
    desktop: { secret: "desktop-secret" },
    job: { workloads: [{ issuer: PLATFORM, subject: WORKLOAD_SUBJECT }] },
  },
  signingKeys: [{ key: await exportJWK(privateKey) }],
});

const token = (init: RequestInit) => as.fetch(new Request(`${ISSUER}/token`, { method: "POST", ...init }));
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function refusal(response: Response, status: number, error: string): Promise<void> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("cache-control"), "no-store");
  assert.equal((await response.json()).error, error);
}

describe("authorizationServer(): metadata, JWKS, and the token endpoint's edges", () => {
  it("serves RFC 8414 metadata at the path-inserted well-known URI (and under the issuer's path)", async () => {
    for (const path of ["/.well-known/oauth-authorization-server/as", "/as/.well-known/oauth-authorization-server"]) {
      const response = await as.fetch(new Request(`https://example.com${path}`));
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), as.metadata);
    }
    assert.equal(
      (await as.fetch(new Request("https://example.com/.well-known/oauth-authorization-server"))).status,
      404,
    );
    const metadata = as.metadata as Record<string, unknown>;
    assert.equal(metadata.issuer, ISSUER);
    assert.equal(metadata.token_endpoint, `${ISSUER}/token`);
    assert.equal(metadata.jwks_uri, `${ISSUER}/jwks`);
    // Named for clients whose schema requires it, with no response type: it refuses every request.
    assert.equal(metadata.authorization_endpoint, `${ISSUER}/authorize`);
    assert.deepEqual(metadata.response_types_supported, []);
    await refusal(
      await as.fetch(new Request(`${ISSUER}/authorize?response_type=code&client_id=desktop`)),
      400,
      "unsupported_response_type",
    );
    assert.deepEqual(metadata.grant_types_supported, [JWT_BEARER, "client_credentials"]);
    assert.deepEqual(metadata.authorization_grant_profiles_supported, ["urn:ietf:params:oauth:grant-profile:id-jag"]);
    assert.deepEqual(metadata.token_endpoint_auth_methods_supported, [
      "client_secret_basic",
      "none",
      "private_key_jwt",
    ]);
    assert.deepEqual(metadata.scopes_supported, ["docs:read", "docs:write"]);
    assert.ok((metadata.dpop_signing_alg_values_supported as string[]).includes("ES256"));
    assert.ok(!(metadata.dpop_signing_alg_values_supported as string[]).some((alg) => alg.startsWith("HS")));
  });

  it("publishes the signing key's public part, with its kid and alg", async () => {
    const response = await as.fetch(new Request(`${ISSUER}/jwks`));
    assert.equal(response.status, 200);
    const { keys } = await response.json();
    assert.equal(keys.length, 1);
    assert.deepEqual([keys[0].kty, keys[0].crv, keys[0].alg, keys[0].use], ["EC", "P-384", "ES384", "sig"]);
    assert.equal(typeof keys[0].kid, "string");
    assert.equal(keys[0].d, undefined);
    assert.equal((await as.fetch(new Request(`${ISSUER}/jwks`, { method: "POST" }))).status, 405);
    assert.equal((await as.fetch(new Request(`${ISSUER}/elsewhere`))).status, 404);
  });

  it("answers bad token requests cleanly", async () => {
    const get = await as.fetch(new Request(`${ISSUER}/token`));
    assert.equal(get.headers.get("allow"), "POST");
    await refusal(get, 405, "invalid_request");
    await refusal(await token({ headers: { "content-type": "application/json" }, body: "{}" }), 400, "invalid_request");
    await refusal(await token({ headers: FORM, body: `grant_type=${"x".repeat(70_000)}` }), 413, "invalid_request");
    await refusal(await token({ headers: FORM, body: "grant_type=a&grant_type=b" }), 400, "invalid_request");
    await refusal(await token({ headers: FORM, body: "resource=a&resource=b&grant_type=x" }), 400, "invalid_target");
    await refusal(await token({ headers: FORM, body: "" }), 400, "invalid_request");
    await refusal(await token({ headers: FORM, body: "grant_type=password" }), 400, "unsupported_grant_type");
    await refusal(
      await token({ headers: FORM, body: `grant_type=${encodeURIComponent(JWT_BEARER)}` }),
      400,
      "invalid_request",
    );
    const twice = await token({
      headers: { ...FORM, authorization: `Basic ${btoa("desktop:desktop-secret")}` },
      body: `grant_type=${encodeURIComponent(JWT_BEARER)}&assertion=x&client_secret=desktop-secret&client_id=desktop`,
    });
    await refusal(twice, 400, "invalid_request");
    const malformed = await token({
      headers: { ...FORM, authorization: "Basic %%%" },
      body: "grant_type=client_credentials",
    });
    assert.match(malformed.headers.get("www-authenticate") ?? "", /^Basic /);
    await refusal(malformed, 401, "invalid_client");
    const unknown = await token({
      headers: { ...FORM, authorization: `Basic ${btoa("nobody:x")}` },
      body: "grant_type=client_credentials",
    });
    await refusal(unknown, 401, "invalid_client");
    const notJwt = await token({
      headers: { ...FORM, authorization: `Basic ${btoa("desktop:desktop-secret")}` },
      body: `grant_type=${encodeURIComponent(JWT_BEARER)}&assertion=not.a.jwt`,
    });
    await refusal(notJwt, 400, "invalid_grant");
  });

  it("signs with a key pair given, its algorithm read from the key, and refuses a symmetric or public-only JWK", async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    const base = { issuer: ISSUER, resources: { [RESOURCE]: { scopes: [] } }, clients: {} };
    const rsa = authorizationServer({ ...base, signingKeys: [{ key: pair, kid: "rsa" }] });
    const { keys } = await (await rsa.fetch(new Request(`${ISSUER}/jwks`))).json();
    assert.deepEqual([keys[0].kty, keys[0].alg, keys[0].kid, keys[0].d], ["RSA", "RS256", "rsa", undefined]);
    const pss = authorizationServer({ ...base, signingKeys: [{ key: await generateKeyPair("PS384") }] });
    assert.equal((await (await pss.fetch(new Request(`${ISSUER}/jwks`))).json()).keys[0].alg, "PS384");
    for (const key of [{ kty: "oct", k: "c2VjcmV0" }, await exportJWK(pair.publicKey)]) {
      assert.throws(() => authorizationServer({ ...base, signingKeys: [{ key }] }), TypeError);
    }
  });

  it("refuses options that contradict each other when the server is made", () => {
    const base = { issuer: ISSUER, resources: { [RESOURCE]: { scopes: [] } }, clients: {} };
    assert.throws(() => authorizationServer({ ...base, issuer: "http://auth.example.com" }), TypeError);
    assert.throws(() => authorizationServer({ ...base, resources: {} }), TypeError);
    assert.throws(
      () => authorizationServer({ ...base, clients: { c: { authMethod: "client_secret_post" } } }),
      TypeError,
    );
    assert.throws(
      () => authorizationServer({ ...base, clients: { c: { authMethod: "none", grants: ["id-jag"] } } }),
      TypeError,
    );
    assert.throws(
      () => authorizationServer({ ...base, clients: { c: { workloads: [{ issuer: PLATFORM, subject: "s" }] } } }),
      /not a trusted workload issuer/,
    );
    assert.throws(
      () =>
        authorizationServer({
          ...base,
          trustedIssuers: [{ issuer: IDP, jwks: idp.jwks, algorithms: ["HS256"], accepts: ["id-jag"] }],
        }),
      /asymmetric/,
    );
  });
});
