/**
 * Workload identity federation at authorizationServer() (SEP-1933, RFC 7523): a trusted platform's JWT whose
 * `sub` a client lists is taken as the JWT-bearer grant's assertion (the client only named, as
 * `workloadIdentity()` sends it) and as the `client_assertion` of a client-credentials grant, and refused for
 * another audience, an unknown subject, another client, an untrusted platform; `private_key_jwt` and
 * `client_secret_post` clients, each by its registered method only.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { authorizationServer } from "../../src/auth-server/mod.ts";
import {
  AS_ISSUER,
  claimsOf,
  JWT_BEARER,
  PLATFORM,
  RESOURCE,
  signer,
  TOKEN_ENDPOINT,
  tokenRequest,
  WORKLOAD_SUBJECT,
  workloadJwt,
} from "../helpers/assertion-issuers.ts";

const CLIENT_ASSERTION = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const platform = await signer();
const clientKeys = await generateKeyPair("ES256");
const as = authorizationServer({
  issuer: AS_ISSUER,
  resources: { [RESOURCE]: { scopes: ["reports:write"] } },
  trustedIssuers: [{ issuer: PLATFORM, jwks: platform.jwks, accepts: ["workload"] }],
  clients: {
    "reporting-job": { workloads: [{ issuer: PLATFORM, subject: WORKLOAD_SUBJECT }] },
    "nightly": { workloads: [{ issuer: PLATFORM, subject: "system:serviceaccount:jobs:nightly", audience: "mcp" }] },
    "signed": {
      jwks: { keys: [{ ...(await exportJWK(clientKeys.publicKey)), alg: "ES256" }] },
      grants: ["client_credentials"],
    },
    "posted": { secret: "posted-secret", authMethod: "client_secret_post", grants: ["client_credentials"] },
  },
});

async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await as.fetch(tokenRequest(params));
  return { status: response.status, body: await response.json() };
}

describe("authorizationServer(): workload identity", () => {
  it("takes a workload's JWT as the JWT-bearer grant's assertion, the client only named", async () => {
    const answer = await token({
      grant_type: JWT_BEARER,
      assertion: await workloadJwt(platform),
      client_id: "reporting-job",
      scope: "reports:write",
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const claims = claimsOf(answer.body.access_token);
    assert.deepEqual([claims.sub, claims.client_id, claims.aud, claims.scope], [
      WORKLOAD_SUBJECT,
      "reporting-job",
      RESOURCE,
      "reports:write",
    ]);
    // The platform hands out the same JWT until it nears expiry: it is taken again.
    const again = await workloadJwt(platform);
    assert.equal((await token({ grant_type: JWT_BEARER, assertion: again })).status, 200);
    assert.equal((await token({ grant_type: JWT_BEARER, assertion: again })).status, 200);
  });

  it("takes a workload's JWT as the client_assertion of a client-credentials grant", async () => {
    const answer = await token({
      grant_type: "client_credentials",
      client_id: "reporting-job",
      client_assertion_type: CLIENT_ASSERTION,
      client_assertion: await workloadJwt(platform),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(claimsOf(answer.body.access_token).sub, WORKLOAD_SUBJECT);
  });

  it("refuses a workload's JWT for another audience, an unknown subject, another client, an untrusted platform", async () => {
    const refusal = async (assertion: string, params: Record<string, string> = {}) => {
      const answer = await token({ grant_type: JWT_BEARER, assertion, ...params });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      return answer.body;
    };
    assert.match(
      (await refusal(await workloadJwt(platform, { aud: "https://as.other" }))).error_description,
      /audience/,
    );
    assert.match(
      (await refusal(await workloadJwt(platform, { sub: "system:serviceaccount:x:y" }))).error_description,
      /no client/,
    );
    const other = await refusal(await workloadJwt(platform), { client_id: "nightly" });
    assert.match(other.error_description, /another client/);
    const stranger = await signer();
    assert.equal((await refusal(await workloadJwt(stranger))).error, "invalid_grant"); // the platform's name, another key
    assert.equal((await refusal(await workloadJwt(stranger, { iss: "https://evil.example" }))).error, "invalid_grant");
    // A client's own audience: "mcp", not this issuer.
    const nightly = { sub: "system:serviceaccount:jobs:nightly" };
    assert.equal((await refusal(await workloadJwt(platform, nightly))).error, "invalid_grant");
    assert.equal(
      (await token({ grant_type: JWT_BEARER, assertion: await workloadJwt(platform, { ...nightly, aud: "mcp" }) }))
        .status,
      200,
    );
    const asClient = await token({
      grant_type: "client_credentials",
      client_id: "reporting-job",
      client_assertion_type: CLIENT_ASSERTION,
      client_assertion: await workloadJwt(platform, { aud: "https://as.other" }),
    });
    assert.deepEqual([asClient.status, asClient.body.error], [401, "invalid_client"]);
  });

  it("authenticates private_key_jwt and client_secret_post clients by their registered method only", async () => {
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ jti: crypto.randomUUID() }).setProtectedHeader({ alg: "ES256" })
      .setIssuer("signed").setSubject("signed").setAudience(TOKEN_ENDPOINT).setIssuedAt(now).setExpirationTime(now + 60)
      .sign(clientKeys.privateKey);
    const signed = {
      grant_type: "client_credentials",
      client_assertion_type: CLIENT_ASSERTION,
      client_assertion: assertion,
    };
    const answer = await token(signed);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual([claimsOf(answer.body.access_token).sub, claimsOf(answer.body.access_token).client_id], [
      "signed",
      "signed",
    ]);
    assert.deepEqual((await token(signed)).body.error, "invalid_client"); // its jti is used
    const posted = await token({
      grant_type: "client_credentials",
      client_id: "posted",
      client_secret: "posted-secret",
    });
    assert.equal(posted.status, 200, JSON.stringify(posted.body));
    const wrong = await token({ grant_type: "client_credentials", client_id: "posted", client_secret: "nope" });
    assert.deepEqual([wrong.status, wrong.body.error], [401, "invalid_client"]);
    const viaBasic = await as.fetch(tokenRequest({ grant_type: "client_credentials" }, {
      authorization: `Basic ${btoa("posted:posted-secret")}`,
    }));
    assert.equal(viaBasic.status, 401); // registered for client_secret_post
    const unauthenticated = await token({ grant_type: "client_credentials", client_id: "reporting-job" });
    assert.deepEqual([unauthenticated.status, unauthenticated.body.error], [401, "invalid_client"]);
  });
});
