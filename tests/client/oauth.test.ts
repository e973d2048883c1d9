/**
 * The client's OAuth (MCP 2025-11-25 and 2026-07-28, Authorization) against our own server behind
 * `jwtAuth()` and a real authorization server (npm `oidc-provider` on 127.0.0.1): the authorization-code
 * flow with PKCE driven headlessly, step-up on 403 `insufficient_scope`, dynamic client registration,
 * the client-credentials grant, and a resource-metadata mismatch refused.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mcpBinding, mcpLiteBinding } from "../../mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { clientCredentials, memoryTokenStore, oauth } from "../../src/client/oauth/mod.ts";
import { createWebtoolsTransport } from "../../src/client/webtools/mod.ts";
import { isAuthorizationFailure } from "../../src/client/errors.ts";
import { McpliteError } from "../../src/errors/mod.ts";
import { APP_CLIENT, authorizeHeadlessly, SERVICE_CLIENT } from "../helpers/authorization-server.ts";
import { type ProtectedServer, startProtectedServer } from "../helpers/protected-server.ts";

let server: ProtectedServer;

before(async () => {
  server = await startProtectedServer([mcpLiteBinding(), mcpBinding(), webtoolsBinding()]);
});
after(async () => await server?.close());

/** An `onAuthorizationUrl` that plays the user: logs in, consents, returns the redirect it got. */
function headlessUser(redirectUri: string, seen: URL[]) {
  return async (url: URL): Promise<string> => {
    seen.push(url);
    const { params } = await authorizeHeadlessly(url, server.as.user);
    return `${redirectUri}?${params}`;
  };
}

describe("oauth(): the authorization-code flow", () => {
  for (const transport of ["mcp-lite", "mcp"] as const) {
    it(`${transport}: discovers, authorizes with PKCE and resource, calls, then steps up for docs:write`, async () => {
      const seen: URL[] = [];
      const client = createClient(transport === "mcp" ? `${server.listener.url}/mcp` : server.listener.url, {
        transport,
        auth: oauth({
          clientId: APP_CLIENT.id,
          scope: "docs:read", // least privilege first; write_doc then steps up
          redirectUri: APP_CLIENT.redirectUri,
          onAuthorizationUrl: headlessUser(APP_CLIENT.redirectUri, seen),
        }),
      });
      try {
        assert.equal(await client.call("read_doc", { id: "7" }), "doc 7");
        assert.equal(seen.length, 1);
        const first = seen[0].searchParams;
        assert.equal(first.get("code_challenge_method"), "S256");
        assert.equal(first.get("resource"), server.resource);
        assert.ok(first.get("state"));
        assert.equal(server.callers.at(-1)?.subject, server.as.user);

        // write_doc needs docs:write: 403 insufficient_scope, re-authorization for the union, retry.
        assert.equal(await client.call("write_doc", { id: "7" }), "wrote 7");
        assert.equal(seen.length, 2);
        const scopes = (seen[1].searchParams.get("scope") ?? "").split(" ");
        assert.ok(scopes.includes("docs:write") && scopes.includes("docs:read"), scopes.join(" "));
        // The stepped-up token is reused: no third authorization.
        assert.equal(await client.call("read_doc", { id: "8" }), "doc 8");
        assert.equal(seen.length, 2);
      } finally {
        await client.close();
      }
    });
  }

  it("registers dynamically (RFC 7591) when no client id is given, and keeps tokens in the store", async () => {
    const seen: URL[] = [];
    const storage = memoryTokenStore();
    const redirectUri = "http://127.0.0.1:8976/callback";
    const client = createClient(`${server.listener.url}/mcp`, {
      transport: "mcp",
      auth: oauth({ redirectUri, storage, onAuthorizationUrl: headlessUser(redirectUri, seen) }),
    });
    try {
      assert.equal(await client.call("read_doc", { id: "1" }), "doc 1");
      const stored = await storage.get(new URL(server.listener.url).origin);
      assert.equal(stored?.issuer, server.as.issuer);
      assert.ok(stored?.client?.clientId, "a registered client id");
      assert.notEqual(stored?.client?.clientId, APP_CLIENT.id);
      assert.equal(seen[0].searchParams.get("client_id"), stored?.client?.clientId);
      assert.ok(stored?.tokens?.accessToken);
    } finally {
      await client.close();
    }
  });

  it("Webtools transport: authorizes through the same fetch path", async () => {
    const seen: URL[] = [];
    const client = createClient(
      createWebtoolsTransport(`${server.listener.url}/webtools/`, {
        auth: oauth({
          clientId: APP_CLIENT.id,
          redirectUri: APP_CLIENT.redirectUri,
          onAuthorizationUrl: headlessUser(APP_CLIENT.redirectUri, seen),
        }),
      }),
    );
    try {
      assert.equal(await client.call("read_doc", { id: "3" }), "doc 3");
      assert.equal(seen.length, 1);
    } finally {
      await client.close();
    }
  });
});

describe("clientCredentials(): machine to machine", () => {
  it("gets a token with the client secret and calls the protected tool, no user involved", async () => {
    const client = createClient(server.listener.url, {
      transport: "mcp-lite",
      auth: clientCredentials({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret }),
    });
    try {
      assert.equal(await client.call("read_doc", { id: "5" }), "doc 5");
      assert.equal(server.callers.at(-1)?.clientId, SERVICE_CLIENT.id);
    } finally {
      await client.close();
    }
  });
});

describe("refusals", () => {
  it("refuses protected resource metadata published for another resource (RFC 9728 §3.3)", async () => {
    const target = "http://127.0.0.1:9/mcp";
    const asked: string[] = [];
    const fake = (request: Request): Response => {
      asked.push(new URL(request.url).pathname);
      if (request.url.includes("/.well-known/oauth-protected-resource")) {
        return Response.json({ resource: "http://127.0.0.1:9/other", authorization_servers: ["http://127.0.0.1:9"] });
      }
      return new Response("", {
        status: 401,
        headers: {
          "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"',
        },
      });
    };
    const client = createClient(target, {
      transport: "mcp",
      fetch: fake,
      auth: oauth({ redirectUri: "http://127.0.0.1/cb", onAuthorizationUrl: () => assert.fail("must not authorize") }),
    });
    try {
      await assert.rejects(client.listTools(), (error: unknown) => {
        // The client's own authorization failed: `unauthenticated`, with no HTTP status.
        assert.ok(error instanceof McpliteError && isAuthorizationFailure(error), String(error));
        assert.match(error.message, /refusing/);
        return true;
      });
      assert.ok(!asked.some((path) => path.includes("oauth-authorization-server")), "no AS discovery");
    } finally {
      await client.close();
    }
  });
});
