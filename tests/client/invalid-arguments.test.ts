/**
 * One failure, one class (issue 61): the same bad arguments, sent to our own server over every wire, throw
 * a `ProtocolError` with the code `invalid_arguments` and the same message. MCP answers them as an
 * `isError` result for the model (MCP 2025-11-25, Tools: error handling), marked with the code; MCP-lite
 * answers -32602, gRPC `INVALID_ARGUMENT`, Webtools `SCHEMA_ERROR`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { type Client, createClient } from "../../src/client/mod.ts";
import { createMcpliteTransport } from "../../src/client/transports/mcplite.ts";
import { createMcpTransport } from "../../src/client/transports/mcp.ts";
import { ProtocolError, ToolError } from "../../src/errors/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { createWebtoolsTransport } from "../../src/client/transports/webtools.ts";

function isInvalidArguments(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === "invalid_arguments";
}

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);
const fails = defineTool("fails").describe("Always fails").handle(() => {
  throw new Error("it broke");
});

/** How a client of each wire is made, from the server's `http://` URL. */
const WIRES: Record<string, (url: string) => Client> = {
  "MCP 2026-07-28": (url) => createClient(createMcpTransport(`${url}/mcp`, { protocolVersion: "2026-07-28" })),
  "MCP 2025-11-25": (url) => createClient(createMcpTransport(`${url}/mcp`, { protocolVersion: "2025-11-25" })),
  "MCP 2025-06-18": (url) => createClient(createMcpTransport(`${url}/mcp`, { protocolVersion: "2025-06-18" })),
  "MCP 2025-03-26": (url) => createClient(createMcpTransport(`${url}/mcp`, { protocolVersion: "2025-03-26" })),
  "MCP-lite": (url) => createClient(createMcpliteTransport(`${url}/mcp-lite/v1`)),
  WebSocket: (url) => createClient(createWebSocketTransport(`${url.replace(/^http/, "ws")}/mcp-lite/v1/ws`)),
  "gRPC (Connect)": (url) => createClient(grpcTransport(url)),
  Webtools: (url) => createClient(createWebtoolsTransport(`${url}/webtools`)),
};

const BAD = { a: "x", b: 1 } as unknown as Record<string, unknown>;
const MESSAGE = 'Invalid arguments for tool add: a: Invalid type: Expected number but received "x"';

describe("invalid arguments: the same class and code on every wire", () => {
  let listener: Listener;
  before(async () => {
    const server = createServer({
      name: "math",
      version: "1.0.0",
      logger: false, // `fails` throws on purpose: no error line each
      bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding(), grpcBinding(), webtoolsBinding()],
    }).tool(add).tool(fails);
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });
  after(() => listener.close());

  for (const [wire, make] of Object.entries(WIRES)) {
    it(`${wire}: call() throws a ProtocolError (invalid_arguments), failure: "value" or not`, async () => {
      const client = make(listener.url);
      try {
        for (const options of [{}, { failure: "value" as const }]) {
          await assert.rejects(client.call("add", BAD, options), (error: unknown) => {
            assert.ok(error instanceof ProtocolError, `${wire}: ${error}`);
            assert.equal(error.code, "invalid_arguments");
            assert.equal(error.name, "ProtocolError");
            assert.equal(error.message, MESSAGE);
            assert.equal((error.data as { tool?: unknown }).tool, "add");
            return true;
          });
        }
        // A tool that ran and failed is still the tool's failure, not the call's.
        await assert.rejects(client.call("fails", {}), (error: unknown) => {
          assert.ok(error instanceof ToolError, `${wire}: ${error}`);
          assert.equal(error.code, "tool_error");
          return true;
        });
      } finally {
        await client.close();
      }
    });
  }

  it("MCP: a call with wait: false and a stream throw it too", async () => {
    const client = WIRES["MCP 2026-07-28"](listener.url);
    try {
      await assert.rejects(client.call("add", BAD, { wait: false }), isInvalidArguments);
      await assert.rejects(client.stream("add", BAD).result, isInvalidArguments);
    } finally {
      await client.close();
    }
  });
});
