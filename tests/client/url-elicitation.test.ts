/**
 * Our client answering URL-mode elicitation (MCP 2025-11-25, Elicitation: URL mode) on each wire that
 * carries it: MCP 2025-11-25 (the request on the call's stream, then `notifications/elicitation/complete`),
 * MCP 2026-07-28 (an input request) and MCP-lite (an `elicitation` response): `onElicit` gets it typed as
 * URL mode, the answer carries no content, and without `elicitationModes: ["form", "url"]` the server refuses.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import { ProtocolError, UrlElicitationRequiredError } from "../../src/errors/mod.ts";
import { type ClientOptions, createClient, type ElicitRequest } from "../../src/client/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import type { Listener } from "../../src/types.ts";

const done = new Set<string>();

const server = createServer({
  name: "url",
  version: "1.0.0",
  bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding(), grpcBinding()],
})
  .tool(
    defineTool("pay").describe("Pays an order").handle(async (_args, ctx) => {
      const answer = await ctx.elicit("pay", {
        mode: "url",
        url: "https://pay.example.com/checkout?order=42",
        message: "Pay for order 42",
        elicitationId: "order-42",
      });
      if (answer.action === "accept") ctx.completeElicitation(answer.elicitationId);
      return `${answer.action} ${answer.elicitationId}`;
    }),
  )
  .tool(
    defineTool("connect").describe("Links an account").handle(() => {
      if (done.has("link")) return "linked";
      throw new UrlElicitationRequiredError([
        { message: "Link your account", url: "https://link.example.com/?s=link", elicitationId: "link" },
      ]);
    }),
  );

const WIRES: Record<string, Pick<ClientOptions, "transport" | "protocolVersion">> = {
  "MCP 2025-11-25": { transport: "mcp", protocolVersion: "2025-11-25" },
  "MCP 2026-07-28": { transport: "mcp" },
  "MCP-lite": { transport: "mcp-lite" },
};

for (const [name, wire] of Object.entries(WIRES)) {
  describe(`our client, URL elicitation over ${name}`, () => {
    const legacy = wire.protocolVersion === "2025-11-25";
    const url = wire.transport === "mcp" ? "http://localhost/mcp" : "http://localhost/mcp-lite/v1";
    const fetch = (request: Request) => server.fetch(request);

    it("hands onElicit a URL request, sends no content, and reports the completion where the wire has it", async () => {
      const asked: ElicitRequest[] = [];
      const completed: string[] = [];
      const client = createClient(url, {
        ...wire,
        fetch,
        elicitationModes: ["form", "url"],
        onElicit: (request) => {
          asked.push(request);
          // A URL request is narrowed by its mode: `url` is there, `requestedSchema` is not.
          return request.mode === "url" ? { action: "accept", content: { ignored: true } } : { action: "decline" };
        },
        onElicitationComplete: (id) => completed.push(id),
      });
      assert.equal(await client.call("pay", {}), "accept order-42");
      assert.equal(asked.length, 1);
      const [request] = asked;
      assert.equal(request.mode, "url");
      assert.equal(request.mode === "url" && request.url, "https://pay.example.com/checkout?order=42");
      assert.equal(request.message, "Pay for order 42");
      assert.deepEqual(completed, legacy ? ["order-42"] : []);
      await client.close();
    });

    it("gets a thrown UrlElicitationRequiredError as -32042 (2025) or as a URL request (the other wires)", async () => {
      done.delete("link");
      const asked: ElicitRequest[] = [];
      const client = createClient(url, {
        ...wire,
        fetch,
        elicitationModes: ["url"],
        onElicit: (request) => {
          asked.push(request);
          done.add("link"); // the user went through the page
          return { action: "accept" };
        },
      });
      if (legacy) {
        const error = await client.call("connect", {}).then(() => assert.fail("expected -32042"), (e: unknown) => e);
        assert.ok(error instanceof ProtocolError);
        assert.equal(error.rpcCode, -32042);
        assert.equal(
          (error.data as { elicitations: { url: string }[] }).elicitations[0].url,
          "https://link.example.com/?s=link",
        );
        done.add("link");
      }
      assert.equal(await client.call("connect", {}), "linked");
      assert.equal(asked.length, legacy ? 0 : 1);
      await client.close();
    });

    it("declares form mode only by default, and the server refuses a URL elicitation with -32021", {
      skip: wire.transport === "mcp-lite" && "MCP-lite declares no client capabilities",
    }, async () => {
      const client = createClient(url, { ...wire, fetch, onElicit: () => ({ action: "accept" }) });
      const error = await client.call("pay", {}).then(() => assert.fail("expected -32021"), (e: unknown) => e);
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.rpcCode, -32021);
      assert.deepEqual((error.data as { requiredCapabilities: unknown }).requiredCapabilities, {
        elicitation: { url: {} },
      });
      await client.close();
    });
  });
}

describe("our client, URL elicitation over WebSocket (MCP-lite's socket carrier)", () => {
  let listener: Listener;
  before(async () => listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true }));
  after(async () => await listener.close());

  it("hands onElicit the URL request and calls again with the answer", async () => {
    const asked: ElicitRequest[] = [];
    const url = `${listener.url.replace("http:", "ws:")}/mcp-lite/v1/ws`;
    const client = createClient(createWebSocketTransport(url), {
      elicitationModes: ["form", "url"],
      onElicit: (request) => (asked.push(request), { action: "decline" }),
    });
    try {
      assert.equal(await client.call("pay", {}), "decline order-42");
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode === "url" && asked[0].url, "https://pay.example.com/checkout?order=42");
    } finally {
      await client.close();
    }
  });
});

describe("our client, URL elicitation over gRPC (Connect)", () => {
  it("reads the ELICITATION response's URL request and calls again with the answer", async () => {
    const asked: ElicitRequest[] = [];
    done.delete("link");
    const transport = grpcTransport("http://localhost", {
      fetch: (input, init) => server.fetch(new Request(input, init)),
    });
    const client = createClient(transport, {
      elicitationModes: ["url"],
      onElicit: (request) => {
        asked.push(request);
        if (request.mode === "url" && request.url.startsWith("https://link.")) done.add("link");
        return { action: "accept" };
      },
    });
    try {
      assert.equal(await client.call("pay", {}), "accept order-42");
      assert.equal(await client.call("connect", {}), "linked"); // the thrown error, as an ELICITATION round
      assert.deepEqual(asked.map((request) => request.mode === "url" && request.url), [
        "https://pay.example.com/checkout?order=42",
        "https://link.example.com/?s=link",
      ]);
    } finally {
      await client.close();
    }
  });
});
