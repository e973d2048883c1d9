/**
 * `jwtAuth({ issuer, resource })` without keys reads them where the issuer's metadata says: RFC 8414 §3.1's
 * well-known path (inserted before the issuer's path), else OpenID Connect Discovery 1.0 §4's; metadata naming
 * another issuer (RFC 8414 §3.3) or no `jwks_uri` gives no keys. Without metadata a request gets 503 with
 * `Retry-After`, never 401. One issuer on 127.0.0.1 serves each shape, chosen per test.
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createServer, defineTool } from "../../mod.ts";
import { jwtAuth } from "../../src/auth/mod.ts";
import { BASE, post, toolsCall } from "../helpers/request.ts";

const signer = await generateKeyPair("ES256");
const jwk = { ...(await exportJWK(signer.publicKey)), kid: "k1", alg: "ES256" };

/** What the issuer publishes: by RFC 8414, by OpenID Connect only, metadata of another issuer, or nothing. */
let shape: "rfc8414" | "oidc" | "other-issuer" | "down" = "rfc8414";
const paths: string[] = [];
let origin = "";
const issuerHttp = createHttpServer((req, res) => {
  paths.push(req.url!);
  const json = (body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  const issuer = `${origin}/tenant`;
  if (req.url === "/keys") return json({ keys: [jwk] });
  if (shape === "rfc8414" && req.url === "/.well-known/oauth-authorization-server/tenant") {
    return json({ issuer, token_endpoint: `${issuer}/token`, jwks_uri: `${origin}/keys` });
  }
  if (shape === "oidc" && req.url === "/tenant/.well-known/openid-configuration") {
    return json({ issuer, jwks_uri: `${origin}/keys` });
  }
  if (shape === "other-issuer" && req.url?.startsWith("/.well-known/")) {
    return json({ issuer: `${origin}/elsewhere`, jwks_uri: `${origin}/keys` });
  }
  res.writeHead(404).end();
});

before(async () => {
  await new Promise<void>((resolve) => issuerHttp.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(issuerHttp.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => issuerHttp.close(() => resolve())));

/** A fresh server (its own key cache) calling `read` with a token of the issuer. */
async function call(): Promise<Response> {
  const issuer = `${origin}/tenant`;
  const server = createServer({ name: "docs", version: "1.0.0", auth: jwtAuth({ issuer, resource: BASE }) })
    .tool(defineTool("read").describe("Reads").handle(() => "read"));
  const token = await new SignJWT({}).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: "k1" })
    .setIssuer(issuer).setAudience(BASE).setSubject("ada").setExpirationTime("5m").sign(signer.privateKey);
  return await server.fetch(
    post("/mcp-lite/v1/calltools", toolsCall("read", {}), { authorization: `Bearer ${token}` }),
  );
}

describe("jwtAuth({ issuer, resource }) without keys", () => {
  it("reads jwks_uri from the RFC 8414 metadata, the well-known path inserted before the issuer's path", async () => {
    shape = "rfc8414";
    paths.length = 0;
    const response = await call();
    assert.equal(response.status, 200, await response.text());
    assert.deepEqual(paths, ["/.well-known/oauth-authorization-server/tenant", "/keys"]);
  });

  it("falls back to the OpenID configuration (Keycloak, Entra and Auth0 publish only that)", async () => {
    shape = "oidc";
    paths.length = 0;
    const response = await call();
    assert.equal(response.status, 200, await response.text());
    assert.deepEqual(paths, [
      "/.well-known/oauth-authorization-server/tenant",
      "/tenant/.well-known/openid-configuration",
      "/keys",
    ]);
  });

  for (const broken of ["other-issuer", "down"] as const) {
    it(`${broken}: no keys, so 503 with Retry-After (the issuer's fault, not the token's), keys never fetched`, async () => {
      shape = broken;
      paths.length = 0;
      const response = await call();
      await response.body?.cancel();
      assert.equal(response.status, 503);
      assert.ok(Number(response.headers.get("retry-after")) >= 1);
      assert.ok(!paths.includes("/keys"), paths.join(" "));
    });
  }
});
