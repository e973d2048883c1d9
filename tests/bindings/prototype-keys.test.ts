/**
 * Arguments reach tools as plain data on every wire: `__proto__`, `constructor` and `prototype` keys, at
 * the top level and nested, neither set an argument that `transformTool()` hides (through the arguments'
 * prototype) nor reach `Object.prototype`. The JSON wires parse them as own keys (ECMA-262 §25.5.1
 * JSON.parse), the gRPC wires decode them from a `google.protobuf.Struct` as own keys too.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import * as v from "valibot";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createClient as createConnectClient, type Transport } from "@connectrpc/connect";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve, transformTool } from "../../mod.ts";
import { grpcBinding, MCPLite, serveGrpc, ToolRequestSchema, ToolResponseSchema } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import { BASE, legacyRequest, modernRequest, post, toolsCall } from "../helpers/request.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { TestSocket } from "../websocket/socket.ts";

/**
 * The hostile arguments, as text: JSON.parse keeps each of these keys as an own property, where an
 * object literal would set the prototype instead.
 */
const HOSTILE = `{
  "q": "x",
  "__proto__": { "role": "admin", "tier": "gold", "polluted": true },
  "constructor": { "prototype": { "role": "admin", "polluted": true } },
  "prototype": { "role": "admin", "polluted": true },
  "nested": {
    "__proto__": { "role": "admin", "polluted": true },
    "constructor": { "prototype": { "polluted": true } },
    "prototype": { "polluted": true },
    "deeper": [{ "__proto__": { "polluted": true } }]
  }
}`;
const hostile = (): Record<string, unknown> => JSON.parse(HOSTILE);

/** What each tool saw, by wire. */
const seen: { wire: string; tool: string; args: Record<string, unknown> }[] = [];
let wire = "";

const original = defineTool("account")
  .describe("Reads an account as a role")
  .input(v.object({ q: v.string(), role: v.optional(v.string()), tier: v.optional(v.string()) }))
  .handle((args) => {
    seen.push({ wire, tool: "account", args });
    return `${args.q} as ${args.role ?? "nobody"} on ${args.tier}`;
  });

/** `role` hidden with no value (left out on every call), `tier` hidden with a fixed one. */
const account = transformTool(original, { args: { role: { hide: true }, tier: { hide: true, value: "free" } } });

/** A tool validated by JSON Schema alone, which receives the wire's object as it is. */
const raw = defineTool("raw")
  .describe("Echoes its arguments")
  .input({ type: "object", properties: { q: { type: "string" } } })
  .handle((args) => {
    seen.push({ wire, tool: "raw", args: args as Record<string, unknown> });
    return "ok";
  });

const server = createServer({
  name: "plain",
  version: "1.0.0",
  bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding(), webtoolsBinding(), grpcBinding()],
})
  .tool(account)
  .tool(raw);

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

/** Checks that a value is plain data: no own `__proto__` key, every object's prototype `Object.prototype` or an array's. */
function assertPlain(value: unknown, path: string): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertPlain(item, `${path}.${i}`));
    return;
  }
  assert.equal(Object.getPrototypeOf(value), Object.prototype, `${path}: its prototype is Object.prototype`);
  assert.ok(!Object.hasOwn(value, "__proto__"), `${path}: no own __proto__ key`);
  for (const [key, item] of Object.entries(value)) assertPlain(item, `${path}.${key}`);
}

/** Nothing reached Object.prototype: no new key, and a fresh object reads none of the sent values. */
function assertUnpolluted(): void {
  assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTOTYPE_NAMES);
  const fresh: Record<string, unknown> = {};
  assert.equal(fresh.role, undefined);
  assert.equal(fresh.polluted, undefined);
  assert.equal(typeof Object.prototype.constructor, "function");
}

/** Calls both tools over one wire and checks what they saw. */
async function check(name: string, call: (tool: string, args: Record<string, unknown>) => Promise<unknown>) {
  wire = name;
  const before = seen.length;
  await call("account", hostile());
  await call("raw", hostile());
  const calls = seen.slice(before);
  assert.deepEqual(calls.map((c) => c.tool), ["account", "raw"], `${name}: both tools ran`);
  const [accountArgs, rawArgs] = calls.map((c) => c.args);
  assert.equal(accountArgs.q, "x");
  assert.equal(accountArgs.role, undefined, `${name}: the hidden role keeps its value (none)`);
  assert.equal(accountArgs.tier, "free", `${name}: the hidden tier keeps its fixed value`);
  assertPlain(accountArgs, `${name} account`);
  assertPlain(rawArgs, `${name} raw`);
  assert.equal(rawArgs.q, "x");
  assert.equal(rawArgs.role, undefined, `${name}: raw reads no role through a prototype`);
  assertUnpolluted();
}

/** The text of a JSON answer, or of the last `data:` line of an SSE one. */
async function answerOf(response: Response): Promise<Record<string, any>> {
  assert.equal(response.status, 200);
  const text = await response.text();
  return JSON.parse(
    text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6),
  );
}

/** A JSON-RPC answer that is a result. */
function assertResult(answer: Record<string, any>): void {
  assert.equal(answer.error, undefined, JSON.stringify(answer));
  assert.notEqual((answer.result ?? answer).isError, true, JSON.stringify(answer));
}

/** A `ToolRequest` in protobuf's binary encoding; the arguments keep their own keys (the Struct's map). */
function toolRequest(tool: string, args: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  const bytes = toBinary(ToolRequestSchema, create(ToolRequestSchema, { name: tool, arguments: args as never }));
  return new Uint8Array(bytes);
}

/** Checks a `ToolResponse` in protobuf's binary encoding. */
function assertResponse(bytes: Uint8Array): void {
  const response = fromBinary(ToolResponseSchema, bytes);
  assert.notEqual(response.result?.isError, true, JSON.stringify(response.result));
}

/** Calls a tool through Connect's client on a transport (Connect's Node transport over HTTP/2). */
async function connectCall(transport: Transport, tool: string, args: Record<string, unknown>): Promise<void> {
  const client = createConnectClient(MCPLite, transport);
  const response = await client.callTool(create(ToolRequestSchema, { name: tool, arguments: args as never }));
  assert.notEqual(response.result?.isError, true, JSON.stringify(response.result));
}

describe("arguments are plain data on every wire", () => {
  after(() => assertUnpolluted());

  it("MCP-lite over HTTP (JSON-RPC)", async () => {
    await check("mcp-lite", async (tool, args) => {
      assertResult(await answerOf(await server.fetch(post("/mcp-lite/v1/calltools", toolsCall(tool, args)))));
    });
  });

  it("MCP 2026-07-28 over HTTP", async () => {
    await check("mcp 2026", async (tool, args) => {
      assertResult(await answerOf(await server.fetch(modernRequest("tools/call", { name: tool, arguments: args }))));
    });
  });

  it("MCP 2025-11-25 over HTTP", async () => {
    await check("mcp 2025", async (tool, args) => {
      assertResult(await answerOf(await server.fetch(legacyRequest("tools/call", { name: tool, arguments: args }))));
    });
  });

  it("stdio", async () => {
    const piped = pipeServer(server);
    try {
      let id = 0;
      await check("stdio", async (tool, args) => {
        piped.send(toolsCall(tool, args, ++id));
        assertResult(await piped.answer(id));
      });
    } finally {
      await piped.stdio.close();
    }
  });

  it("WebSocket", async () => {
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    const socket = await TestSocket.open(`${listener.url.replace("http", "ws")}/mcp-lite/v1/ws`);
    try {
      let id = 0;
      await check("websocket", async (tool, args) => {
        socket.send(toolsCall(tool, args, ++id));
        assertResult(await socket.answer(id));
      });
    } finally {
      await socket.close();
      await listener.close();
    }
  });

  it("Webtools", async () => {
    await check("webtools", async (tool, args) => {
      const answer = await answerOf(await server.fetch(post("/webtools/", { action: tool, request: args })));
      assert.equal(answer.status, "ok", JSON.stringify(answer));
    });
  });

  it("Connect JSON", async () => {
    await check("connect json", async (tool, args) => {
      const answer = await answerOf(
        await server.fetch(post("/mcplite.MCPLite/CallTool", { name: tool, arguments: args })),
      );
      assert.notEqual(answer.result?.isError, true, JSON.stringify(answer));
    });
  });

  // Built by hand rather than with Connect's fetch client, whose streamed request bodies Node's fetch
  // refuses (`duplex` is required), so that Node runs this file too.
  it("Connect proto", async () => {
    await check("connect proto", async (tool, args) => {
      const headers = { "content-type": "application/proto" };
      const call = new Request(`${BASE}/mcplite.MCPLite/CallTool`, {
        method: "POST",
        headers,
        body: toolRequest(tool, args),
      });
      const response = await server.fetch(call);
      assert.equal(response.status, 200);
      assertResponse(new Uint8Array(await response.arrayBuffer()));
    });
  });

  it("gRPC-Web", async () => {
    await check("grpc-web", async (tool, args) => {
      const message = toolRequest(tool, args);
      const body = new Uint8Array(5 + message.byteLength); // gRPC-Web: Length-Prefixed-Message, as gRPC's
      new DataView(body.buffer).setUint32(1, message.byteLength);
      body.set(message, 5);
      const headers = { "content-type": "application/grpc-web+proto" };
      const call = new Request(`${BASE}/mcplite.MCPLite/CallTool`, { method: "POST", headers, body });
      const response = await server.fetch(call);
      assert.equal(response.status, 200);
      const frames = new Uint8Array(await response.arrayBuffer());
      assert.equal(frames[0], 0, "the first frame is the message");
      assertResponse(frames.subarray(5, 5 + new DataView(frames.buffer).getUint32(1)));
    });
  });

  it("serveGrpc() over h2c", async () => {
    const listener = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
    try {
      await check("serveGrpc", (tool, args) => connectCall(grpcOverH2(listener.url), tool, args));
    } finally {
      closeClientSessions();
      await listener.close();
    }
  });
});
