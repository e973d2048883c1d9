/**
 * Workload identity federation at authorizationServer() (SEP-1933, RFC 7523): a trusted platform's JWT whose
 * `sub` a client lists is taken as the JWT-bearer grant's assertion (the client only named, as
 * `workloadIdentity()` sends it) and as the `client_assertion` of a client-credentials grant, and refused for
 * another audience, an unknown subject, another client, an untrusted platform; `private_key_jwt` and
 * `client_secret_post` clients, each by its registered method only. A workload's JWT lives at most its
 * issuer's `maxLifetimeSec` (an hour by default; two hours, a year, no `exp` or no `iat` refused), and is
 * not used up: the same one is taken again, for several resources, until it expires.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { type AuthorizationServer, authorizationServer } from "../../src/auth-server/mod.ts";
import {
  AS_ISSUER,
  claimsOf,
  JWT_BEARER,
  PLATFORM,
  RESOURCE,
  type Signer,
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

describe("authorizationServer(): a workload JWT's lifetime and reuse", () => {
  const REPORTS = "https://reports.example.com/mcp";
  const CI = "https://token.actions.githubusercontent.com";
  const CI_SUBJECT = "repo:acme/reports:ref:refs/heads/main";
  const HOUR = 3600;
  let ci: Signer;
  let bounded: AuthorizationServer;
  before(async () => {
    ci = await signer("ci-1");
    bounded = authorizationServer({
      issuer: AS_ISSUER,
      resources: { [RESOURCE]: { scopes: ["reports:write"] }, [REPORTS]: { scopes: ["reports:read"] } },
      trustedIssuers: [
        { issuer: PLATFORM, jwks: platform.jwks, accepts: ["workload"] }, // an hour, by default
        { issuer: CI, jwks: ci.jwks, accepts: ["workload"], maxLifetimeSec: 3 * HOUR },
      ],
      clients: {
        "reporting-job": {
          workloads: [{ issuer: PLATFORM, subject: WORKLOAD_SUBJECT }, { issuer: CI, subject: CI_SUBJECT }],
        },
      },
    });
  });
  /** A JWT issued now that lives `seconds` (`iat` or `exp` removed when `undefined`). */
  const living = (seconds: number, overrides: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return { iat: now, exp: now + seconds, jti: crypto.randomUUID(), ...overrides };
  };
  /** Redeems a workload's JWT as the grant, and as the client assertion of a client-credentials grant. */
  async function redeemBothWays(jwt: string, resource = RESOURCE) {
    const ask = async (params: Record<string, string>) => {
      const response = await bounded.fetch(tokenRequest({ client_id: "reporting-job", resource, ...params }));
      return { status: response.status, body: await response.json() as Record<string, string> };
    };
    return [
      await ask({ grant_type: JWT_BEARER, assertion: jwt }),
      await ask({ grant_type: "client_credentials", client_assertion_type: CLIENT_ASSERTION, client_assertion: jwt }),
    ];
  }
  /** Asserts both ways refused: `invalid_grant` as the grant, `invalid_client` as the client's assertion. */
  async function refusedBothWays(jwt: string, reason: RegExp): Promise<void> {
    const [grant, assertion] = await redeemBothWays(jwt);
    assert.deepEqual([grant.status, grant.body.error], [400, "invalid_grant"], JSON.stringify(grant.body));
    assert.deepEqual([assertion.status, assertion.body.error], [401, "invalid_client"], JSON.stringify(assertion.body));
    assert.match(grant.body.error_description, reason);
    assert.match(assertion.body.error_description, reason);
  }

  it("refuses by default a JWT living two hours or a year, or without exp or iat, naming the bound", async () => {
    const bound = /at most 3600 s \(trustedIssuers\[0\]\.maxLifetimeSec sets it\)/;
    for (const seconds of [2 * HOUR, 365 * 24 * HOUR]) {
      await refusedBothWays(await workloadJwt(platform, living(seconds)), new RegExp(`lives ${seconds} s`));
      await refusedBothWays(await workloadJwt(platform, living(seconds)), bound);
    }
    await refusedBothWays(await workloadJwt(platform, living(600, { exp: undefined })), /has no exp/);
    // Without iat only what is left of its life could be bounded: a year-long token kept until its last hour.
    await refusedBothWays(await workloadJwt(platform, living(600, { iat: undefined })), /has no iat/);
    for (const answer of await redeemBothWays(await workloadJwt(platform, living(HOUR)))) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body)); // exactly the bound
    }
  });

  it("takes a JWT within its issuer's raised bound, and still refuses one beyond it", async () => {
    const fromCi = (seconds: number) => workloadJwt(ci, { iss: CI, sub: CI_SUBJECT, ...living(seconds) });
    for (const answer of await redeemBothWays(await fromCi(2 * HOUR))) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(claimsOf(answer.body.access_token).sub, CI_SUBJECT);
    }
    await refusedBothWays(
      await fromCi(365 * 24 * HOUR),
      /at most 10800 s \(trustedIssuers\[1\]\.maxLifetimeSec sets it\)/,
    );
  });

  it("takes the same JWT again until it expires, for several resources: a workload's JWT is not used up", async () => {
    // The policy (workload.ts): platforms hand one token to every request of its life, a workload asks one access
    // token per resource, so the JWT is reused, its jti notwithstanding; its audience and lifetime bound it.
    const jwt = await workloadJwt(platform, living(HOUR / 2));
    const issued = new Set<string>();
    for (const resource of [RESOURCE, REPORTS, RESOURCE]) {
      for (const answer of await redeemBothWays(jwt, resource)) {
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(claimsOf(answer.body.access_token).aud, resource);
        issued.add(answer.body.access_token);
      }
    }
    assert.equal(issued.size, 6, "a new access token each time");
  });

  it("refuses a maxLifetimeSec that is not a number of seconds above 0, at most a day", () => {
    for (const maxLifetimeSec of [0, -1, Number.NaN, 24 * HOUR + 1]) {
      assert.throws(
        () =>
          authorizationServer({
            issuer: AS_ISSUER,
            resources: { [RESOURCE]: { scopes: [] } },
            trustedIssuers: [{ issuer: PLATFORM, jwks: platform.jwks, accepts: ["workload"], maxLifetimeSec }],
            clients: {},
          }),
        /trustedIssuers\[0\]\.maxLifetimeSec/,
      );
    }
  });
});
