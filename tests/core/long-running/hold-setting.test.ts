/**
 * The one hold setting: `createServer({ holdMs })` for the whole server, overridden per binding
 * (`mcpLiteBinding({ holdMs })`, `mcpBinding({ holdMs })`, `grpcBinding({ holdMs })`), read the same
 * way by every carrier: MCP-lite over SSE, stdio and WebSocket, gRPC `CallToolStream`, and MCP's hold
 * (over HTTP, stdio and WebSocket). A job that ends shortly after the call is answered in the call
 * under a long hold, and as a promise (MCP: the pending text) under a hold of 0.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createClient as createConnectClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../../mod.ts";
import type { Listener } from "../../../src/types.ts";
import { grpcBinding, MCPLite, ResponseType } from "../../../src/bindings/grpc/mod.ts";
import { webSocketBinding } from "../../../src/websocket/mod.ts";
import { modernMeta, modernRequest, post } from "../../helpers/request.ts";
import { readJsonRpc, readSse } from "../../helpers/sse.ts";
import { pipeServer } from "../../helpers/stdio.ts";
import { TestSocket } from "../../websocket/socket.ts";

const LONG = 60_000;

/** How a call ended: answered in the call, or a promise to redeem. */
type Ending = "answer" | "promise";

/** A server on every carrier, with a job that ends 100 ms after the call. */
function jobServer(serverHoldMs: number, bindingHoldMs?: number) {
  const holdMs = bindingHoldMs; // undefined: no override
  return createServer({
    name: "jobs",
    version: "1.0.0",
    secret: "hold-setting-secret-0123456789abcdef",
    holdMs: serverHoldMs,
    bindings: [mcpLiteBinding({ holdMs }), mcpBinding({ holdMs }), grpcBinding({ holdMs }), webSocketBinding()],
  }).tool(
    defineTool("crunch")
      .describe("Crunches numbers in the background")
      .longRunning({ retryAfterMs: 20 })
      .handle((_args, ctx) =>
        ctx.defer(async () => {
          // Work that takes a while: a hold of 0 answers in the call's own turn, a long one waits for it.
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { rows: 42 };
        })
      ),
  );
}

const liteCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "crunch", arguments: {}, _meta: { stream: true } },
});
const mcpCall = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "crunch", arguments: {}, _meta: modernMeta() },
});

/** MCP-lite's `_meta.response_type`. */
const liteEnding = (result: Record<string, any>): Ending => result._meta.response_type;
/** MCP without tasks: the real result, or the pending text naming the promise. */
function mcpEnding(result: Record<string, any>): Ending {
  if (result.structuredContent?.rows === 42) return "answer";
  assert.equal(typeof result.structuredContent?.promise, "string", JSON.stringify(result));
  return "promise";
}

/** Every carrier's ending for one server. */
async function endings(server: ReturnType<typeof jobServer>): Promise<Record<string, Ending>> {
  const found: Record<string, Ending> = {};
  const sse = await readSse(
    await server.fetch(post("/mcp-lite/v1/calltools", liteCall(1), { accept: "text/event-stream" })),
  );
  found["MCP-lite SSE"] = liteEnding(JSON.parse(sse.find((e) => e.event === "done")!.data));
  found["MCP HTTP"] = mcpEnding(
    (await readJsonRpc(await server.fetch(modernRequest("tools/call", { name: "crunch", arguments: {} })))).result,
  );
  const piped = pipeServer(server);
  try {
    piped.send(liteCall(2));
    piped.send(mcpCall(3));
    found["MCP-lite stdio"] = liteEnding((await piped.answer(2)).result as Record<string, any>);
    found["MCP stdio"] = mcpEnding((await piped.answer(3)).result as Record<string, any>);
  } finally {
    await piped.end();
  }
  const listener: Listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  try {
    const socket = await TestSocket.open(`ws://127.0.0.1:${listener.port}/mcp-lite/v1/ws`, ["mcp-lite.v1"]);
    try {
      socket.send(liteCall(4));
      socket.send(mcpCall(5));
      found["MCP-lite WebSocket"] = liteEnding((await socket.answer(4)).result);
      found["MCP WebSocket"] = mcpEnding((await socket.answer(5)).result);
    } finally {
      await socket.close();
    }
    const client = createConnectClient(MCPLite, createConnectTransport({ baseUrl: listener.url, httpVersion: "1.1" }));
    let last: { meta?: { responseType: ResponseType } } | undefined;
    for await (const response of client.callToolStream({ name: "crunch", arguments: {} })) last = response;
    found["gRPC CallToolStream"] = last?.meta?.responseType === ResponseType.PROMISE ? "promise" : "answer";
  } finally {
    await listener.close();
  }
  return found;
}

const CARRIERS = [
  "MCP-lite SSE",
  "MCP HTTP",
  "MCP-lite stdio",
  "MCP stdio",
  "MCP-lite WebSocket",
  "MCP WebSocket",
  "gRPC CallToolStream",
];
const every = (ending: Ending) => Object.fromEntries(CARRIERS.map((carrier) => [carrier, ending]));

describe("one hold setting, read the same way by every carrier", () => {
  it("holds for the server's holdMs on every carrier", async () => {
    assert.deepEqual(await endings(jobServer(LONG)), every("answer"));
    assert.deepEqual(await endings(jobServer(0)), every("promise"));
  });

  it("holds for each binding's override of it, on every carrier of that binding's wire", async () => {
    assert.deepEqual(await endings(jobServer(0, LONG)), every("answer"));
    assert.deepEqual(await endings(jobServer(LONG, 0)), every("promise"));
  });

  it("checks the override as the server's: a negative or non-finite holdMs is refused", () => {
    for (const holdMs of [-1, Number.NaN, Infinity]) {
      assert.throws(() => grpcBinding({ holdMs }), { name: "TypeError", message: /holdMs/ });
    }
  });
});
