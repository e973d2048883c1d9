/**
 * DPoP end to end with our own server (RFC 9449): the client's `dpop: true` against `jwtAuth({ dpop:
 * "required" })`, whose gate checks every proof (signature, `htm`, `htu`, `iat`, `ath`, the token's
 * `cnf.jkt`, replays), with oidc-provider binding the tokens. MCP-lite, MCP and Connect over HTTP, and
 * MCP-lite over a WebSocket (the proof on the upgrade).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mcpBinding, mcpLiteBinding } from "../../../mod.ts";
import { grpcBinding } from "../../../src/bindings/grpc/mod.ts";
import { createClient } from "../../../src/client/mod.ts";
import { clientCredentials, oauth } from "../../../src/client/oauth/mod.ts";
import { ErrorCode, McpliteError, ProtocolError } from "../../../src/errors/mod.ts";
import { grpcTransport } from "../../../src/client/transports/grpc.ts";
import { createWebSocketTransport } from "../../../src/client/transports/websocket.ts";
import { webSocketBinding } from "../../../src/websocket/mod.ts";
import { APP_CLIENT, authorizeHeadlessly, SERVICE_CLIENT } from "../../helpers/authorization-server.ts";
import { type ProtectedServer, startProtectedServer } from "../../helpers/protected-server.ts";

let server: ProtectedServer;
before(async () => {
  server = await startProtectedServer([mcpLiteBinding(), mcpBinding(), grpcBinding(), webSocketBinding()], {
    dpop: "required",
  });
});
after(async () => await server?.close());

const machine = () =>
  clientCredentials({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, dpop: true });

describe("DPoP with our server (jwtAuth({ dpop: 'required' }))", () => {
  for (const transport of ["mcp-lite", "mcp"] as const) {
    it(`${transport} over HTTP: client credentials, a bound token, a proof on each call`, async () => {
      const client = createClient(transport === "mcp" ? `${server.listener.url}/mcp` : server.listener.url, {
        transport,
        auth: machine(),
      });
      try {
        assert.equal(await client.call("read_doc", { id: "1" }), "doc 1");
        assert.equal(await client.call("read_doc", { id: "2" }), "doc 2");
        assert.equal(server.callers.at(-1)?.clientId, SERVICE_CLIENT.id);
      } finally {
        await client.close();
      }
    });
  }

  it("Connect over fetch: the same", async () => {
    const client = createClient(grpcTransport(server.listener.url, { auth: machine() }));
    try {
      assert.equal(await client.call("read_doc", { id: "3" }), "doc 3");
    } finally {
      await client.close();
    }
  });

  it("MCP-lite over a WebSocket: the upgrade carries the bound token and a proof of the GET", async () => {
    const url = `${server.listener.url.replace(/^http/, "ws")}/mcp-lite/v1/ws`;
    const client = createClient(createWebSocketTransport(url, { auth: machine() }));
    try {
      assert.equal(await client.call("read_doc", { id: "6" }), "doc 6");
      assert.equal(await client.call("read_doc", { id: "7" }), "doc 7");
      assert.equal(server.callers.at(-1)?.clientId, SERVICE_CLIENT.id);
    } finally {
      await client.close();
    }
  });

  it("the authorization-code flow with a user: the code exchange carries the proof", async () => {
    const client = createClient(server.listener.url, {
      transport: "mcp-lite",
      auth: oauth({
        clientId: APP_CLIENT.id,
        redirectUri: APP_CLIENT.redirectUri,
        dpop: true,
        onAuthorizationUrl: async (url) =>
          `${APP_CLIENT.redirectUri}?${(await authorizeHeadlessly(url, server.as.user)).params}`,
      }),
    });
    try {
      assert.equal(await client.call("read_doc", { id: "4" }), "doc 4");
      assert.equal(server.callers.at(-1)?.subject, server.as.user);
    } finally {
      await client.close();
    }
  });

  /**
   * A client without `dpop`, whose fetch records each request to the authorization server's token endpoint and
   * each to the resource.
   */
  function bearerClient(target: "mcp-lite" | "mcp" | "auto" | "grpc") {
    const tokenRequests: string[] = [];
    const resourceRequests: string[] = [];
    const fetcher = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith("/token")) tokenRequests.push(request.url);
      else if (new URL(request.url).origin === new URL(server.listener.url).origin) {
        resourceRequests.push(`${request.method} ${new URL(request.url).pathname}`);
      }
      return await fetch(request);
    };
    const auth = clientCredentials({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret });
    const client = target === "grpc"
      ? createClient(grpcTransport(server.listener.url, { auth, fetch: fetcher }))
      : createClient(target === "mcp" ? `${server.listener.url}/mcp` : server.listener.url, {
        transport: target,
        fetch: fetcher,
        auth,
      });
    return { client, tokenRequests, resourceRequests };
  }

  for (const target of ["mcp-lite", "mcp", "auto", "grpc"] as const) {
    it(`${target} without dpop: an unauthenticated error that names DPoP, and no bearer token asked for`, async () => {
      const { client, tokenRequests, resourceRequests } = bearerClient(target);
      try {
        const error = await client.call("read_doc", { id: "5" }).then(() => undefined, (e: unknown) => e);
        assert.ok(
          error instanceof McpliteError && !(error instanceof ProtocolError),
          `${(error as Error)?.name}: ${(error as Error)?.message}`,
        );
        assert.equal(error.code, ErrorCode.Unauthenticated);
        assert.match(error.message, /requires DPoP/);
        assert.match(error.message, /dpop: true/);
        assert.equal(error.status, 401);
        // RFC 9449 §7.1: the challenge names DPoP alone, so a bearer token would be refused.
        assert.deepEqual(tokenRequests, []);
        // The client's own authorization failed: no other wire or revision is tried (an era or wire question
        // would send a second request: MCP's initialize, or MCP after MCP-lite).
        assert.equal(
          resourceRequests.filter((r) => !r.includes("/.well-known/")).length,
          1,
          resourceRequests.join(", "),
        );
      } finally {
        await client.close();
      }
    });
  }
});
