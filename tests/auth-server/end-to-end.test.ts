/**
 * Issue 79 end to end, every party real and on 127.0.0.1 (tests/helpers/auth-server-stack.ts): our client's
 * `enterpriseAuth()` exchanges the user's ID token for an ID-JAG at the enterprise IdP (RFC 8693; SEP-990), redeems
 * it at our authorization server (RFC 7523 §2.1) and calls a tool on our MCP server, which knows the authorization
 * server by its issuer alone (`jwtAuth({ issuer, resource })`); the same with `workloadIdentity()` (SEP-1933: the
 * platform's JWT as the grant, or as a `client_assertion`); with `dpop: true` the token is bound to the client's key
 * (RFC 9449 §6.1, `cnf.jkt`) and a replayed proof is refused. The resource refuses what is not its access token: one
 * for another resource, a JWT typed as an ID-JAG, an ID-JAG, a bound token as `Bearer`. Then the same flows on Node 22,
 * in a process of its own (tests/auth-server/end-to-end-node.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, type JWK } from "jose";
import { createClient } from "../../src/client/mod.ts";
import { enterpriseAuth, workloadIdentity } from "../../src/client/oauth/mod.ts";
import type { ClientAuth } from "../../src/client/http.ts";
import { isAuthorizationFailure } from "../../src/client/errors.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { type AuthServerStack, DESKTOP, REPORTER, startAuthServerStack } from "../helpers/auth-server-stack.ts";
import { IDP_CLIENT_ID } from "../helpers/enterprise-idp.ts";
import { node22, NODE22_MISSING } from "../helpers/node22.ts";
import { ONCE_PER_RUN } from "../helpers/once-per-run.ts";
import { ROOT, run } from "../helpers/process.ts";

let stack: AuthServerStack;
before(async () => {
  stack = await startAuthServerStack();
});
after(async () => await stack?.close());

async function whoami(auth: ClientAuth, transport: "mcp-lite" | "mcp"): Promise<unknown> {
  const url = transport === "mcp" ? `${stack.resource}/mcp` : stack.resource;
  const client = createClient(url, { transport, auth });
  try {
    return await client.call("whoami", {});
  } finally {
    await client.close();
  }
}

const enterprise = (user: string, dpop = false) =>
  enterpriseAuth({
    idp: { tokenEndpoint: stack.idp.tokenEndpoint, clientId: IDP_CLIENT_ID },
    idToken: () => stack.idp.idToken(user),
    clientId: DESKTOP.id,
    clientSecret: DESKTOP.secret,
    dpop,
  });

/** The access token and DPoP proof of the last `tools/call` the MCP server answered. */
function lastCall() {
  const call = stack.presented.findLast((p) => p.method === "POST" && p.authorization !== null)!;
  const [scheme, token] = call.authorization!.split(" ");
  return { ...call, scheme, token };
}

/** Sends the MCP server a `tools/call` of `whoami` on MCP-lite with these headers. */
const callWith = (headers: Record<string, string>) =>
  fetch(`${stack.resource}/mcp-lite/v1/calltools`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
  });

describe("the resource names our authorization server", () => {
  it("in its protected-resource metadata (RFC 9728), from jwtAuth({ issuer, resource }) alone", async () => {
    const metadata = await (await fetch(`${stack.resource}/.well-known/oauth-protected-resource`)).json();
    assert.equal(metadata.resource, stack.resource);
    assert.deepEqual(metadata.authorization_servers, [stack.as.issuer]);
  });
});

describe("enterpriseAuth() → the IdP's ID-JAG → our authorization server → our MCP server", () => {
  for (const transport of ["mcp-lite", "mcp"] as const) {
    it(`${transport}: calls the tool as the user, with an RFC 9068 access token for this resource`, async () => {
      assert.equal(await whoami(enterprise("ada"), transport), "ada");
      const { scheme, token } = lastCall();
      assert.equal(scheme, "Bearer");
      assert.equal(decodeProtectedHeader(token).typ, "at+jwt");
      const claims = decodeJwt(token);
      assert.equal(claims.iss, stack.as.issuer);
      assert.equal(claims.aud, stack.resource);
      assert.equal(claims.sub, "ada");
      assert.equal(claims.client_id, DESKTOP.id);
      assert.equal(claims.cnf, undefined);
    });
  }

  it("dpop: true binds the token to the client's key (cnf.jkt), and the resource refuses a replayed proof", async () => {
    assert.equal(await whoami(enterprise("grace", true), "mcp-lite"), "grace");
    const call = lastCall();
    assert.equal(call.scheme, "DPoP");
    const jwk = decodeProtectedHeader(call.dpop!).jwk as JWK;
    assert.deepEqual(decodeJwt(call.token).cnf, { jkt: await calculateJwkThumbprint(jwk) });
    const replayed = await callWith({ authorization: call.authorization!, dpop: call.dpop! });
    await replayed.body?.cancel();
    assert.equal(replayed.status, 401);
    assert.match(replayed.headers.get("www-authenticate")!, /^DPoP error="invalid_dpop_proof"/);
    const asBearer = await callWith({ authorization: `Bearer ${call.token}` });
    await asBearer.body?.cancel();
    assert.equal(asBearer.status, 401, "a bound token presented as a bearer token (RFC 9449 §7.2)");
  });
});

describe("a refusal of our authorization server reaches the caller as it answered (RFC 6749 §5.2)", () => {
  it("a wrong client secret: invalid_client and its description, not the Basic challenge beside them", async () => {
    // The secret went in `Authorization: Basic`, so the refusal carries `WWW-Authenticate: Basic` (§5.2) too.
    const auth = enterpriseAuth({
      idp: { tokenEndpoint: stack.idp.tokenEndpoint, clientId: IDP_CLIENT_ID },
      idToken: () => stack.idp.idToken("ada"),
      clientId: DESKTOP.id,
      clientSecret: "not the desktop's secret",
    });
    await assert.rejects(whoami(auth, "mcp-lite"), (error: unknown) => {
      assert.ok(error instanceof McpliteError && isAuthorizationFailure(error), String(error));
      assert.equal(error.message, "The token request failed: invalid_client (the client secret is wrong)");
      assert.deepEqual(error.data, { error: "invalid_client", error_description: "the client secret is wrong" });
      return true;
    });
  });

  it("a grant it refuses: the error code and description, as answered in the body", async () => {
    const auth = workloadIdentity({ clientId: REPORTER.id, token: () => "not-a-jwt" });
    await assert.rejects(whoami(auth, "mcp-lite"), (error: unknown) => {
      assert.ok(error instanceof McpliteError && isAuthorizationFailure(error), String(error));
      assert.match(error.message, /^The token request failed: invalid_grant \(.+\)$/);
      assert.equal((error.data as { error: string }).error, "invalid_grant");
      return true;
    });
  });
});

describe("workloadIdentity() → our authorization server → our MCP server", () => {
  for (const use of ["grant", "client_assertion"] as const) {
    it(`calls the tool as the workload, its platform JWT the ${use === "grant" ? "grant's assertion" : use}`, async () => {
      const auth = workloadIdentity({ clientId: REPORTER.id, token: () => stack.workloadJwt(), use });
      assert.equal(await whoami(auth, use === "grant" ? "mcp" : "mcp-lite"), REPORTER.subject);
      assert.equal(decodeJwt(lastCall().token).client_id, REPORTER.id);
    });
  }
});

describe("the resource takes only its own access tokens", () => {
  it("refuses our authorization server's token for another resource, and its key's JWT of another type", async () => {
    const grant = await fetch(`${stack.as.issuer}/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: await stack.workloadJwt(),
        client_id: REPORTER.id,
        resource: `${stack.resource}/billing`,
      }),
    });
    const { access_token } = await grant.json();
    assert.equal(grant.status, 200);
    assert.equal(decodeJwt(access_token).aud, `${stack.resource}/billing`);
    // Signed with the right key, for this resource, but an ID-JAG's type (RFC 9068 §4: typ at+jwt).
    const notAnAccessToken = await stack.signAsServer({ sub: "ada" }, "oauth-id-jag+jwt");
    for (
      const [token, reason] of [[access_token, /not issued for this resource/], [notAnAccessToken, /type/]] as const
    ) {
      const refused = await callWith({ authorization: `Bearer ${token}` });
      await refused.body?.cancel();
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get("www-authenticate")!, /^Bearer error="invalid_token"/);
      assert.match(refused.headers.get("www-authenticate")!, reason);
    }
  });

  it("never takes the IdP's ID-JAG itself (another issuer's key: unavailable until the keys are refetched)", async () => {
    const jag = await stack.idp.idJag({ sub: "ada", aud: stack.as.issuer, resource: stack.resource });
    const refused = await callWith({ authorization: `Bearer ${jag}` });
    await refused.body?.cancel();
    assert.equal(refused.status, 503);
  });
});

describe("on Node 22", { skip: ONCE_PER_RUN }, () => {
  it("enterpriseAuth() with and without DPoP, and workloadIdentity(), call the tool", async (t) => {
    const node = await node22();
    if (!node) return t.skip(NODE22_MISSING);
    const done = await run(node, [`${ROOT}tests/auth-server/end-to-end-node.ts`], 60_000, ROOT);
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout);
    assert.match(printed.runtime, /^v22\./);
    assert.deepEqual(printed.called, ["ada", "grace", REPORTER.subject]);
    assert.deepEqual(printed.schemes, ["Bearer", "DPoP", "Bearer"]);
  });
});
