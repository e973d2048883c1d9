/**
 * End to end over OTLP/HTTP: the official exporter (`@opentelemetry/exporter-trace-otlp-http`, JSON
 * encoding) sends what `otel()` and `otelClient()` recorded to a receiver this test starts on
 * 127.0.0.1, which decodes the OTLP/JSON export requests: the agent's span, our client's CLIENT span
 * and the server's SERVER span arrive in one trace, with the conventions' attributes and the
 * instrumentation scope `@mcplite/sdk`. Every wire reports its `network.transport` (`tcp` over HTTP,
 * WebSocket and gRPC, `pipe` over stdio), and `initialize` the version it negotiated. Through our client,
 * on every wire (MCP and MCP-lite over HTTP, stdio and a WebSocket, gRPC, Connect, Webtools), the tool
 * list's SERVER span is its CLIENT span's child, both with the request's id where the wire has one, the
 * CLIENT span names the server (`server.address`, `server.port`, `network.transport`), and an unknown
 * tool is the same `error.type` (its ErrorCode) and `rpc.response.status_code` (the wire's words) on both ends.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import process from "node:process";
import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { createClient, type Transport } from "../../src/client/mod.ts";
import { createMcpliteTransport } from "../../src/client/transports/mcplite.ts";
import { createMcpTransport } from "../../src/client/transports/mcp.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { createWebtoolsTransport } from "../../src/client/transports/webtools.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { modernRequest, toolsCall } from "../helpers/request.ts";
import {
  type OtlpReceiver,
  type OtlpSpan,
  SPAN_KIND_CLIENT,
  SPAN_KIND_SERVER,
  startOtlpReceiver,
} from "./otlp-receiver.ts";
import { inAgentStep } from "./telemetry.ts";

const CHILD = fileURLToPath(new URL("../helpers/traced-stdio-server.ts", import.meta.url));

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);

describe("OTLP/HTTP export of otel() and otelClient() spans", () => {
  let receiver: OtlpReceiver;
  let app: Listener;
  let grpc: GrpcListener;
  let provider: TracerProvider;

  before(async () => {
    receiver = await startOtlpReceiver();
    provider = new TracerProvider({
      resource: resourceFromAttributes({ "service.name": "otlp-test" }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: receiver.tracesUrl }) })],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    const server = createServer({
      name: "exported",
      version: "1.0.0",
      heartbeatMs: 0,
      bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding(), webSocketBinding()],
    }).tool(add).use(otel());
    app = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });

  after(async () => {
    trace.disable();
    propagation.disable();
    context.disable();
    await provider.shutdown();
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await grpc.close();
    await app.close();
    await receiver.close();
  });

  it("the receiver decodes the agent's, the CLIENT and the SERVER span of one call, in one trace", async () => {
    const client = createClient(`${app.url}/mcp`, { transport: "mcp", telemetry: otelClient() });
    const answer = await inAgentStep(() => client.call("add", { a: 20, b: 22 }));
    assert.equal(String(answer), "42");
    await client.close();
    await provider.forceFlush();

    const exported = receiver.received;
    assert.ok(exported.length > 0, "nothing arrived");
    for (const type of receiver.contentTypes) assert.equal(type, "application/json");
    const step = exported.find(({ span }) => span.name === "agent step")!;
    const clientSpan = exported.find(({ span }) => span.kind === SPAN_KIND_CLIENT && span.name === "tools/call add");
    const serverSpan = exported.find(({ span }) => span.kind === SPAN_KIND_SERVER && span.name === "tools/call add");
    assert.ok(step && clientSpan && serverSpan, exported.map(({ span }) => `${span.kind} ${span.name}`).join(", "));
    assert.match(step.span.traceId, /^[0-9a-f]{32}$/); // OTLP/JSON writes ids as hex
    for (const { span, service } of [clientSpan, serverSpan]) {
      assert.equal(span.traceId, step.span.traceId);
      assert.equal(service, "otlp-test");
    }
    assert.equal(clientSpan.span.parentSpanId, step.span.spanId);
    assert.equal(serverSpan.span.parentSpanId, clientSpan.span.spanId);
    assert.equal(clientSpan.scope, "@mcplite/sdk");
    assert.equal(serverSpan.scope, "@mcplite/sdk");
    const attributes = Object.fromEntries(
      (serverSpan.span.attributes ?? []).map(({ key, value }) => [key, value.stringValue]),
    );
    assert.equal(attributes["mcp.method.name"], "tools/call");
    assert.equal(attributes["gen_ai.tool.name"], "add");
    assert.equal(attributes["gen_ai.operation.name"], "execute_tool");
    assert.equal(attributes["network.transport"], "tcp");
  });

  /** The SERVER span named `name` exported after the first `from` spans, waited for at most 15 s. */
  function serverSpan(from: number, name: string): Promise<OtlpSpan> {
    return spanOf(from, SPAN_KIND_SERVER, name);
  }

  /** The span of `kind` named `name` exported after the first `from` spans, waited for at most 15 s. */
  async function spanOf(from: number, kind: number, name: string): Promise<OtlpSpan> {
    await provider.forceFlush();
    const found = await receiver.waitFor((span) => span.kind === kind && span.name === name, 15_000, from);
    const names = receiver.received.slice(from).map(({ span }) => `${span.kind} ${span.name}`).join(", ");
    assert.ok(found !== undefined, `no span ${kind} ${name} arrived (got: ${names})`);
    return found.span;
  }

  /** A span's attributes, as strings. */
  function attributesOf(span: OtlpSpan): Record<string, string | undefined> {
    const values = (span.attributes ?? []).map(({ key, value }) => [key, value.stringValue ?? value.intValue]);
    return Object.fromEntries(values.map(([key, value]) => [key, value === undefined ? undefined : String(value)]));
  }

  /** Sends one JSON-RPC message on a new socket and waits for its answer (WHATWG WebSockets). */
  async function overWebSocket(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const socket = new WebSocket(`${app.url.replace("http", "ws")}/mcp-lite/v1/ws`, "mcp-lite.v1");
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no answer on the WebSocket")), 10_000);
        socket.onopen = () => socket.send(JSON.stringify(message));
        socket.onerror = () => reject(new Error("the WebSocket failed"));
        socket.onmessage = (event) => {
          const answer = JSON.parse(String(event.data));
          if (answer.id === message.id) {
            clearTimeout(timer);
            resolve(answer);
          }
        };
      });
    } finally {
      socket.close();
    }
  }

  const initialize = (id: string) => ({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "otlp", version: "1.0.0" } },
  });

  it("initialize carries the version it negotiated, and every wire its network.transport", async () => {
    const seen: Record<string, { transport?: string; version?: string }> = {};
    const record = (wire: string, span: OtlpSpan) => {
      const attributes = new Map((span.attributes ?? []).map(({ key, value }) => [key, value.stringValue]));
      seen[wire] = { transport: attributes.get("network.transport"), version: attributes.get("mcp.protocol.version") };
    };

    // MCP 2025-11-25 over HTTP: initialize has no MCP-Protocol-Version header; its result names the version.
    let from = receiver.received.length;
    const initialized = await fetch(`${app.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize("http-init")),
    });
    assert.equal((await initialized.json()).result.protocolVersion, "2025-11-25");
    record("MCP 2025 HTTP", await serverSpan(from, "initialize"));

    from = receiver.received.length;
    const modern = modernRequest("tools/call", { name: "add", arguments: { a: 1, b: 1 } });
    const answered = await fetch(`${app.url}/mcp`, { method: "POST", headers: modern.headers, body: modern.body });
    assert.equal((await answered.json()).result.content[0].text, "2");
    record("MCP 2026 HTTP", await serverSpan(from, "tools/call add"));

    from = receiver.received.length;
    const lite = await fetch(`${app.url}/mcp-lite/v1/calltools`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(toolsCall("add", { a: 1, b: 2 })),
    });
    assert.equal(lite.status, 200);
    await lite.body?.cancel();
    record("MCP-lite HTTP", await serverSpan(from, "tools/call add"));

    from = receiver.received.length;
    assert.ok("result" in await overWebSocket(toolsCall("add", { a: 2, b: 2 }, "ws-lite")));
    record("MCP-lite WebSocket", await serverSpan(from, "tools/call add"));

    from = receiver.received.length;
    const overSocket = await overWebSocket(initialize("ws-init"));
    assert.equal((overSocket.result as Record<string, unknown>).protocolVersion, "2025-11-25");
    record("MCP WebSocket", await serverSpan(from, "initialize"));

    from = receiver.received.length;
    const viaGrpc = createClient(grpcTransport(grpcOverH2(grpc.url)));
    assert.equal(String(await viaGrpc.call("add", { a: 3, b: 3 })), "6");
    await viaGrpc.close();
    record("gRPC", await serverSpan(from, "tools/call add"));

    from = receiver.received.length;
    const viaWebtools = createClient(createWebtoolsTransport(`${app.url}/webtools`));
    assert.deepEqual((await viaWebtools.listTools()).map((tool) => tool.name), ["add"]);
    await viaWebtools.close();
    record("Webtools", await serverSpan(from, "tools/list"));

    // stdio: a server in its own process, exporting to the same receiver.
    from = receiver.received.length;
    const env = { ...process.env, OTLP_TRACES_URL: receiver.tracesUrl } as Record<string, string>;
    const viaStdio = createClient(createStdioTransport({ ...runtimeCommand(CHILD), env }));
    try {
      assert.equal(String(await viaStdio.call("add", { a: 4, b: 4 })), "8");
      record("stdio", await serverSpan(from, "tools/call add"));
    } finally {
      await viaStdio.close();
    }

    assert.deepEqual(seen, {
      "MCP 2025 HTTP": { transport: "tcp", version: "2025-11-25" },
      "MCP 2026 HTTP": { transport: "tcp", version: "2026-07-28" },
      "MCP-lite HTTP": { transport: "tcp", version: undefined },
      "MCP-lite WebSocket": { transport: "tcp", version: undefined },
      "MCP WebSocket": { transport: "tcp", version: "2025-11-25" },
      "gRPC": { transport: "tcp", version: undefined },
      "Webtools": { transport: "tcp", version: undefined },
      stdio: { transport: "pipe", version: "2026-07-28" }, // our stdio client speaks MCP 2026
    }, JSON.stringify(seen));
  });
  it("every client wire: CLIENT → SERVER with the wire's request id, the server's address, and one name for an error", async () => {
    const port = String(new URL(app.url).port);
    const env = { ...process.env, OTLP_TRACES_URL: receiver.tracesUrl } as Record<string, string>;
    const tcp = { "server.address": "127.0.0.1", "server.port": port, "network.transport": "tcp" };
    const wires: Record<
      string,
      { transport: () => Transport; peer: Record<string, string | undefined>; ids: boolean }
    > = {
      "MCP HTTP": { transport: () => createMcpTransport(`${app.url}/mcp`), peer: tcp, ids: true },
      "MCP-lite HTTP": { transport: () => createMcpliteTransport(`${app.url}/mcp-lite/v1`), peer: tcp, ids: false },
      "MCP-lite WebSocket": {
        transport: () => createWebSocketTransport(`${app.url.replace("http", "ws")}/mcp-lite/v1/ws`),
        peer: tcp,
        ids: true,
      },
      "MCP stdio": {
        transport: () => createStdioTransport({ ...runtimeCommand(CHILD), env }),
        peer: { "server.address": undefined, "server.port": undefined, "network.transport": "pipe" },
        ids: true,
      },
      "MCP-lite stdio": {
        transport: () => createStdioTransport({ ...runtimeCommand(CHILD), env, wire: "mcp-lite" }),
        peer: { "server.address": undefined, "server.port": undefined, "network.transport": "pipe" },
        ids: true,
      },
      gRPC: {
        transport: () => grpcTransport(grpcOverH2(grpc.url), { baseUrl: grpc.url }),
        peer: { ...tcp, "server.port": String(grpc.port) },
        ids: false,
      },
      "Connect on fetch": { transport: () => grpcTransport(app.url), peer: tcp, ids: false },
      Webtools: { transport: () => createWebtoolsTransport(`${app.url}/webtools`), peer: tcp, ids: false },
    };
    const errors: Record<string, [string | undefined, string | undefined, string | undefined]> = {};
    for (const [wire, { transport, peer, ids }] of Object.entries(wires)) {
      const client = createClient(transport(), { telemetry: otelClient() });
      try {
        // The list: its SERVER span is the CLIENT span's child, both name the request by the id it travelled with.
        let from = receiver.received.length;
        assert.deepEqual((await inAgentStep(() => client.listTools())).map((tool) => tool.name), ["add"], wire);
        const listed = await spanOf(from, SPAN_KIND_CLIENT, "tools/list");
        const served = await serverSpan(from, "tools/list");
        assert.equal(served.traceId, listed.traceId, `${wire}: the list's SERVER span is in another trace`);
        assert.equal(served.parentSpanId, listed.spanId, wire);
        const [client$, server$] = [attributesOf(listed), attributesOf(served)];
        assert.equal(client$["jsonrpc.request.id"], server$["jsonrpc.request.id"], wire);
        assert.equal(client$["jsonrpc.request.id"] !== undefined, ids, `${wire}: jsonrpc.request.id`);
        for (const [key, value] of Object.entries(peer)) assert.equal(client$[key], value, `${wire}: ${key}`);

        // An unknown tool: the CLIENT and the SERVER span name the failure alike, in the wire's words.
        from = receiver.received.length;
        await assert.rejects(inAgentStep(() => client.call("nope" as never, {})), wire);
        const failedClient = attributesOf(await spanOf(from, SPAN_KIND_CLIENT, "tools/call nope"));
        const failedServer = attributesOf(await serverSpan(from, "tools/call nope"));
        assert.equal(failedClient["error.type"], failedServer["error.type"], wire);
        assert.equal(failedClient["rpc.response.status_code"], failedServer["rpc.response.status_code"], wire);
        errors[wire] = [
          failedServer["error.type"],
          failedServer["rpc.response.status_code"],
          failedClient["server.port"],
        ];
      } finally {
        await client.close();
      }
    }
    // One name for the failure on every wire (its ErrorCode); the status, the wire's own answer.
    assert.deepEqual(errors, {
      "MCP HTTP": ["unknown_tool", "-32602", port], // MCP 2026-07-28 answers an unknown tool invalid params
      "MCP-lite HTTP": ["unknown_tool", "-32601", port], // MCP-lite spec v0.042 A.5
      "MCP-lite WebSocket": ["unknown_tool", "-32601", port],
      "MCP stdio": ["unknown_tool", "-32602", undefined],
      "MCP-lite stdio": ["unknown_tool", "-32601", undefined],
      gRPC: ["unknown_tool", "NOT_FOUND", String(grpc.port)],
      "Connect on fetch": ["unknown_tool", "NOT_FOUND", port],
      Webtools: ["unknown_tool", undefined, port],
    });
  });
});
