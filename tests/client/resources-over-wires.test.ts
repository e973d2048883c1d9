/**
 * The client's resources on every wire (issue 61): `listResources()`, `listResourceTemplates()` and
 * `readResource()` over MCP-lite (the README's extension E4: `/resources`, `/resources/templates`,
 * `/resources/read`), over a WebSocket (the same methods as JSON-RPC messages), over gRPC (Connect:
 * `GetResources`, `GetResourceTemplates`, `ReadResource`), and from a bare origin, against our own server,
 * with MCP 2026-07-28 as the reference: the same lists, the same contents, the same input round, the same
 * error codes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, defineResource, defineTool, mcpBinding, mcpLiteBinding, serve, type Server } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { type Client, type ClientOptions, createClient } from "../../src/client/mod.ts";
import { createMcpliteTransport } from "../../src/client/transports/mcplite.ts";
import { createMcpTransport } from "../../src/client/transports/mcp.ts";
import { errorCodeOf } from "../helpers/error-code.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";

const BINDINGS = () => [mcpLiteBinding(), mcpBinding(), webSocketBinding(), grpcBinding()];
const ping = defineTool("ping").describe("Answers pong").handle(() => "pong");

function withResources(): Server {
  return createServer({
    name: "docs",
    version: "1.0.0",
    bindings: BINDINGS(),
    secret: "resources-over-wires-test-secret-32b",
  })
    .tool(ping)
    .resource(defineResource("docs://readme").title("Read me").mimeType("text/markdown").read(() => "# Hello"))
    .resource(defineResource("users://{id}/profile").mimeType("application/json").read(({ id }) => `{"id":"${id}"}`))
    .resource(
      defineResource("vault://secret").mimeType("text/plain").read(async (_vars, ctx) => {
        const answer = await ctx.elicit("unlock", {
          message: "Unlock the vault?",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        });
        return answer.content?.ok === true ? "the secret" : "locked";
      }),
    );
}

/** The options both a URL and a transport take: the client's own (handlers, timeouts, retries, telemetry). */
type CommonOptions = Omit<
  ClientOptions,
  "transport" | "fetch" | "headers" | "auth" | "protocolVersion" | "maxResponseBytes" | "basePath" | "path"
>;
/** How a client of each wire is made, from the server's `http://` URL. */
type Make = (url: string, options: CommonOptions) => Client;
const WIRES: Record<string, Make> = {
  "MCP 2026-07-28 (reference)": (url, options) => createClient(createMcpTransport(`${url}/mcp`), options),
  "MCP-lite": (url, options) => createClient(createMcpliteTransport(`${url}/mcp-lite/v1`), options),
  WebSocket: (url, options) =>
    createClient(createWebSocketTransport(`${url.replace(/^http/, "ws")}/mcp-lite/v1/ws`), options),
  "gRPC (Connect)": (url, options) => createClient(grpcTransport(url), options),
  "a bare origin (MCP-lite found)": (url, options) => createClient(url, options),
};

describe("resources on every wire", () => {
  let listener: Listener;
  let bare: Listener;
  before(async () => {
    listener = await serve(withResources(), { port: 0, hostname: "127.0.0.1", quiet: true });
    const none = createServer({ name: "tools-only", version: "1.0.0", bindings: BINDINGS() }).tool(ping);
    bare = await serve(none, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(async () => {
    await listener.close();
    await bare.close();
  });

  it("a bare origin whose MCP-lite has no resources endpoints (404) reads them over MCP", async () => {
    const server = withResources();
    const asked: string[] = [];
    const fetch = (request: Request): Promise<Response> => {
      const path = new URL(request.url).pathname;
      asked.push(path);
      if (path.startsWith("/mcp-lite/v1/resources")) return Promise.resolve(new Response("Not Found", { status: 404 }));
      return Promise.resolve(server.fetch(request));
    };
    const client = createClient("http://localhost", { fetch });
    const readme = await client.readResource("docs://readme");
    assert.deepEqual(readme.contents, [{ uri: "docs://readme", text: "# Hello", mimeType: "text/markdown" }]);
    assert.equal((await client.listResources()).length, 2);
    assert.ok(asked.includes("/mcp-lite/v1/resources/read") && asked.includes("/mcp"), asked.join(" "));
  });

  for (const [wire, make] of Object.entries(WIRES)) {
    it(`${wire}: lists resources and templates, reads them, answers a read's input round`, async () => {
      let asked = 0;
      const client = make(listener.url, {
        onElicit: (request) => {
          asked++;
          assert.equal(request.message, "Unlock the vault?");
          return { action: "accept", content: { ok: true } };
        },
      });
      try {
        assert.deepEqual(await client.listResources(), [
          { uri: "docs://readme", name: "docs://readme", title: "Read me", mimeType: "text/markdown" },
          { uri: "vault://secret", name: "vault://secret", mimeType: "text/plain" },
        ]);
        assert.deepEqual(await client.listResourceTemplates(), [
          { uriTemplate: "users://{id}/profile", name: "users://{id}/profile", mimeType: "application/json" },
        ]);
        const readme = await client.readResource("docs://readme");
        assert.deepEqual(readme.contents, [{ uri: "docs://readme", text: "# Hello", mimeType: "text/markdown" }]);
        const profile = await client.readResource("users://ada/profile");
        assert.deepEqual(profile.contents, [
          { uri: "users://ada/profile", text: '{"id":"ada"}', mimeType: "application/json" },
        ]);
        const secret = await client.readResource("vault://secret");
        assert.deepEqual(secret.contents, [{ uri: "vault://secret", text: "the secret", mimeType: "text/plain" }]);
        assert.equal(asked, 1);
        assert.equal(await errorCodeOf(client.readResource("nope://x")), "resource_not_found");
      } finally {
        await client.close();
      }
    });

    it(`${wire}: a server without resources refuses the method (method_not_found)`, async () => {
      const client = make(bare.url, {});
      try {
        assert.equal(await errorCodeOf(client.listResources()), "method_not_found");
        assert.equal(await errorCodeOf(client.readResource("docs://readme")), "method_not_found");
      } finally {
        await client.close();
      }
    });
  }
});
