/**
 * The JWT-assertion grants against real servers that check what they receive with jose
 * (tests/helpers/assertion-servers.ts): enterprise-managed authorization (SEP-990: token exchange at
 * the IdP, RFC 8693, then the JWT-bearer grant, RFC 7523 §2.1) and workload identity federation
 * (SEP-1933: the platform's JWT as the grant's assertion, or as `client_assertion`, RFC 7523 §2.2).
 */
import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { createClient } from "../../../src/client/mod.ts";
import { enterpriseAuth, workloadIdentity } from "../../../src/client/oauth/mod.ts";
import type { ClientAuth } from "../../../src/client/http.ts";
import { isAuthorizationFailure } from "../../../src/client/errors.ts";
import { ErrorCode, McpliteError } from "../../../src/errors/mod.ts";
import {
  AS_CLIENT,
  type AssertionServers,
  IDP_CLIENT_ID,
  startAssertionServers,
} from "../../helpers/assertion-servers.ts";

let servers: AssertionServers;
before(async () => {
  servers = await startAssertionServers();
});
after(async () => await servers?.close());

async function call(auth: ClientAuth, transport: "mcp-lite" | "mcp" = "mcp-lite"): Promise<unknown> {
  const client = createClient(transport === "mcp" ? `${servers.listener.url}/mcp` : servers.listener.url, {
    transport,
    auth,
  });
  try {
    return await client.call("whoami", {});
  } finally {
    await client.close();
  }
}

describe("enterpriseAuth()", () => {
  for (const transport of ["mcp-lite", "mcp"] as const) {
    it(`${transport}: exchanges the user's ID token for an ID-JAG at the IdP, then gets a token with it`, async () => {
      const from = servers.requests.length;
      const idToken = await servers.idToken("ada");
      const auth = enterpriseAuth({
        idp: { tokenEndpoint: servers.idp.tokenEndpoint, clientId: IDP_CLIENT_ID },
        idToken: () => idToken,
        clientId: AS_CLIENT.id,
        clientSecret: AS_CLIENT.secret,
      });
      assert.equal(await call(auth, transport), "ok");
      assert.equal(servers.callers.at(-1), "ada");
      const [exchange, grant, ...rest] = servers.requests.slice(from);
      assert.equal(rest.length, 0);
      assert.equal(exchange.endpoint, "idp");
      assert.equal(exchange.body.get("grant_type"), "urn:ietf:params:oauth:grant-type:token-exchange");
      assert.equal(exchange.body.get("requested_token_type"), "urn:ietf:params:oauth:token-type:id-jag");
      assert.equal(exchange.body.get("subject_token"), idToken);
      assert.equal(exchange.body.get("audience"), servers.issuer);
      assert.equal(exchange.body.get("resource"), servers.listener.url);
      assert.equal(grant.endpoint, "as");
      assert.equal(grant.body.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
      assert.ok(grant.authorization?.startsWith("Basic "));
    });
  }

  it("an ID token the IdP refuses fails the call with an authorization error, and no grant is tried", async () => {
    const from = servers.requests.length;
    const auth = enterpriseAuth({
      idp: { tokenEndpoint: servers.idp.tokenEndpoint, clientId: IDP_CLIENT_ID },
      idToken: "not-a-jwt",
      clientId: AS_CLIENT.id,
      clientSecret: AS_CLIENT.secret,
    });
    await assert.rejects(
      call(auth),
      (error: unknown) => error instanceof McpliteError && /invalid_grant|token request/.test(error.message),
    );
    assert.deepEqual(servers.requests.slice(from).map((r) => r.endpoint), ["idp"]);
  });
  it("an IdP that is down fails the call as a transport error (not a refused login), and works once it is back", async () => {
    // The IdP's token endpoint as the client sees it: a listener of its own in front of the test IdP, stopped and
    // started again on the same port.
    const forward = (): Server =>
      createHttpServer(async (request, response) => {
        const body = await new Response(request as unknown as ReadableStream).text();
        const answer = await fetch(servers.idp.tokenEndpoint, {
          method: "POST",
          headers: { "content-type": String(request.headers["content-type"]) },
          body,
        });
        response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
        response.end(await answer.text());
      });
    const listen = (idp: Server, port = 0) =>
      new Promise<number>((resolve) =>
        idp.listen(port, "127.0.0.1", () => resolve((idp.address() as AddressInfo).port))
      );
    const stop = (idp: Server) =>
      new Promise<void>((resolve) => {
        idp.closeAllConnections();
        idp.close(() => resolve());
      });
    let idp = forward();
    const port = await listen(idp);
    await stop(idp);
    const idToken = await servers.idToken("grace");
    const auth = () =>
      enterpriseAuth({
        idp: { tokenEndpoint: `http://127.0.0.1:${port}/token`, clientId: IDP_CLIENT_ID },
        idToken: () => idToken,
        clientId: AS_CLIENT.id,
        clientSecret: AS_CLIENT.secret,
      });
    const from = servers.requests.length;
    await assert.rejects(call(auth()), (error: unknown) => {
      assert.ok(error instanceof McpliteError, String(error));
      assert.ok(!isAuthorizationFailure(error), `a refused login, not an outage: ${error}`);
      assert.equal(error.code, ErrorCode.Transport);
      return true;
    });
    assert.equal(servers.requests.length, from, "nothing reached the IdP or the authorization server");
    idp = forward();
    await listen(idp, port);
    try {
      assert.equal(await call(auth()), "ok");
      assert.equal(servers.callers.at(-1), "grace");
    } finally {
      await stop(idp);
    }
  });
});

describe("workloadIdentity()", () => {
  it("presents the platform's JWT from a callback as the JWT-bearer grant's assertion", async () => {
    const from = servers.requests.length;
    const jwt = await servers.workloadJwt();
    assert.equal(await call(workloadIdentity({ clientId: "reporter", token: () => jwt })), "ok");
    assert.equal(servers.callers.at(-1), "system:serviceaccount:jobs:reporter");
    const [grant] = servers.requests.slice(from);
    assert.equal(grant.body.get("grant_type"), "urn:ietf:params:oauth:grant-type:jwt-bearer");
    assert.equal(grant.body.get("assertion"), jwt);
    assert.equal(grant.body.get("client_id"), "reporter");
  });

  it("reads the JWT from a file, afresh, and from an environment variable", async () => {
    const fs = await import("node:fs/promises");
    const os = await import("node:os");
    const path = `${await fs.mkdtemp(`${os.tmpdir()}/wif-`)}/token`;
    try {
      await fs.writeFile(path, `${await servers.workloadJwt()}\n`);
      assert.equal(await call(workloadIdentity({ clientId: "reporter", token: { file: path } })), "ok");
      const name = "MCPLITE_TEST_WORKLOAD_TOKEN";
      const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process!.env;
      env[name] = await servers.workloadJwt();
      try {
        assert.equal(await call(workloadIdentity({ clientId: "reporter", token: { env: name } })), "ok");
      } finally {
        delete env[name];
      }
    } finally {
      await fs.rm(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    }
  });

  it("presents it as client_assertion of a client-credentials grant when asked", async () => {
    const from = servers.requests.length;
    const jwt = await servers.workloadJwt();
    assert.equal(
      await call(workloadIdentity({ clientId: "reporter", token: () => jwt, use: "client_assertion" })),
      "ok",
    );
    const [grant] = servers.requests.slice(from);
    assert.equal(grant.body.get("grant_type"), "client_credentials");
    assert.equal(grant.body.get("client_assertion_type"), "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    assert.equal(grant.body.get("client_assertion"), jwt);
  });

  it("a refused JWT (wrong audience, expired) fails the call once, without retrying", async () => {
    for (
      const jwt of [
        await servers.workloadJwt({ audience: "https://other.example" }),
        await servers.workloadJwt({ expiresIn: "-60s" }),
      ]
    ) {
      const from = servers.requests.length;
      await assert.rejects(call(workloadIdentity({ clientId: "reporter", token: () => jwt })), McpliteError);
      assert.equal(servers.requests.length - from, 1);
    }
  });
});
