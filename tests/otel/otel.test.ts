/**
 * `otel()` and `otelClient()` with the official OpenTelemetry SDK registered: a SERVER span per method
 * on every wire, parented on the caller's trace context (`params._meta`, the `traceparent` header, gRPC
 * metadata) and attributed per the semantic conventions for MCP; tool failures and protocol errors on
 * the span; our client's CLIENT span and the server's in one trace over HTTP (MCP, MCP-lite), stdio and
 * gRPC; the duration histograms; and nothing recorded without a registered SDK.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { closeClientSessions, grpcOverH2 } from "../helpers/h2-sessions.ts";
import * as v from "valibot";
import { createServer, defineTool, fail, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { grpcBinding, type GrpcListener, serveGrpc } from "../../src/bindings/grpc/mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { grpcTransport } from "../../src/client/transports/grpc.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { pipeServer } from "../helpers/stdio.ts";
import { modernRequest, post } from "../helpers/request.ts";
import { inAgentStep, type Recorded, registerSdk } from "./telemetry.ts";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const PARENT_ID = "b7ad6b7169203331";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() })).handle((
  { a, b },
) => a + b);
const broken = defineTool("broken").describe("Always fails").handle(() => fail("the disk is full"));

function tracedServer() {
  return createServer({
    name: "traced",
    version: "1.0.0",
    heartbeatMs: 0,
    bindings: [mcpLiteBinding(), mcpBinding(), webtoolsBinding(), grpcBinding()],
  }).tool(add).tool(broken).use(otel());
}

function serverSpans(recorded: Recorded) {
  return recorded.spans().filter((span) => span.kind === SpanKind.SERVER);
}

describe("otel() without a registered SDK", () => {
  it("records nothing and answers as usual", async () => {
    const server = tracedServer();
    const response = await server.fetch(
      modernRequest("tools/call", { name: "add", arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } }),
    );
    assert.equal((await response.json()).result.content[0].text, "3");
    const recorded = registerSdk(); // registered only now: the call above went to the no-op API
    try {
      assert.deepEqual(recorded.spans(), []);
      assert.deepEqual(await recorded.histogram("mcp.server.operation.duration"), []);
    } finally {
      await recorded.close();
    }
  });
});

/** A server traced by `otel()` whose logger keeps its warnings. */
function warnedServer() {
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (message: unknown) => void warnings.push(String(message)), error() {} };
  const server = createServer({ name: "warned", version: "1.0.0", logger }).tool(add).use(otel());
  return { server, warnings };
}

describe("otel(): the warning when no tracer provider is registered", () => {
  it("without one, the logger gets exactly one warning, naming the install line", async () => {
    const { server, warnings } = warnedServer();
    for (let i = 0; i < 3; i++) assert.equal((await server.call("add", { a: i, b: 1 })).kind, "answer");
    await server.fetch(modernRequest("tools/list"));
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0], /no OpenTelemetry tracer provider is registered/);
    assert.match(warnings[0], /npm i @opentelemetry\/api @opentelemetry\/sdk-trace/);
  });

  it("with one registered, no warning", async () => {
    const recorded = registerSdk();
    try {
      const { server, warnings } = warnedServer();
      assert.equal((await server.call("add", { a: 1, b: 1 })).kind, "answer");
      await server.fetch(modernRequest("tools/list"));
      assert.deepEqual(warnings, []);
      assert.ok(recorded.spans().length > 0);
    } finally {
      await recorded.close();
    }
  });
});

describe("otel() and otelClient() with the SDK registered", () => {
  let recorded: Recorded;
  let listener: Listener;
  let grpc: GrpcListener;
  let server: ReturnType<typeof tracedServer>;
  before(async () => {
    recorded = registerSdk();
    server = tracedServer();
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    grpc = await serveGrpc(server, { port: 0, closeGraceMs: 200 });
  });
  after(async () => {
    closeClientSessions(); // before the listener's GOAWAY (tests/helpers/h2-sessions.ts)
    await grpc.close();
    await listener.close();
    await recorded.close();
  });

  const send = async (request: Request) => {
    recorded.reset();
    const url = new URL(request.url);
    const response = await fetch(listener.url + url.pathname, {
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    });
    const body = await response.json();
    return { status: response.status, body };
  };

  it("MCP 2026-07-28: params._meta.traceparent parents the SERVER span, named and attributed per the conventions", async () => {
    await send(
      modernRequest("tools/call", { name: "add", arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } }, 7),
    );
    const [span] = serverSpans(recorded);
    assert.equal(span.name, "tools/call add");
    assert.equal(span.spanContext().traceId, TRACE_ID);
    assert.equal(span.parentSpanContext?.spanId, PARENT_ID);
    assert.deepEqual(span.attributes, {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "add",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": "7",
      "mcp.protocol.version": "2026-07-28",
      "network.transport": "tcp",
    });
    assert.equal(span.status.code, SpanStatusCode.UNSET);
  });

  it("MCP 2025: the session id, and a traceparent header becomes a link when _meta carries another parent", async () => {
    const init = await fetch(`${listener.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }),
    });
    await init.body?.cancel();
    const session = init.headers.get("mcp-session-id")!;
    const other = `00-${TRACE_ID}-1111111111111111-01`;
    await send(post("/mcp", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { traceparent: TRACEPARENT } },
    }, {
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      "mcp-session-id": session,
      traceparent: other,
    }));
    const [span] = serverSpans(recorded);
    assert.equal(span.name, "tools/list");
    assert.equal(span.parentSpanContext?.spanId, PARENT_ID);
    assert.equal(span.attributes["mcp.session.id"], session);
    assert.deepEqual(span.links.map((link) => link.context.spanId), ["1111111111111111"]);
  });

  it("MCP-lite, Webtools and Connect: the traceparent header parents the span", async () => {
    const headers = { traceparent: TRACEPARENT };
    const requests: [string, Request][] = [
      [
        "mcp-lite",
        post("/mcp-lite/v1/calltools", {
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "add", arguments: { a: 1, b: 1 } },
        }, headers),
      ],
      ["webtools", post("/webtools/", { action: "add", request: { a: 1, b: 1 } }, headers)],
      ["connect", post("/mcplite.MCPLite/CallTool", { name: "add", arguments: { a: 1, b: 1 } }, headers)],
    ];
    for (const [wire, request] of requests) {
      const { status } = await send(request);
      assert.equal(status, 200, wire);
      const [span] = serverSpans(recorded);
      assert.equal(span?.name, "tools/call add", wire);
      assert.equal(span.parentSpanContext?.spanId, PARENT_ID, wire);
      assert.equal(span.attributes["network.transport"], "tcp", wire);
    }
  });

  it("an isError result sets ERROR and error.type = tool_error", async () => {
    await send(modernRequest("tools/call", { name: "broken", arguments: {} }));
    const [span] = serverSpans(recorded);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.status.message, "the disk is full");
    assert.equal(span.attributes["error.type"], "tool_error");
  });

  it("a protocol error sets error.type to its ErrorCode and rpc.response.status_code to its JSON-RPC code", async () => {
    const { body } = await send(modernRequest("tools/call", { name: "nope", arguments: {} }));
    assert.equal(body.error.code, -32602);
    assert.equal(body.error.data.code, "unknown_tool");
    const [span] = serverSpans(recorded);
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.attributes["error.type"], "unknown_tool");
    assert.equal(span.attributes["rpc.response.status_code"], "-32602");
  });

  for (const wire of ["mcp", "mcp-lite"] as const) {
    it(`our client inside an active span: CLIENT → SERVER in one trace over HTTP (${wire})`, async () => {
      recorded.reset();
      const url = wire === "mcp" ? `${listener.url}/mcp` : `${listener.url}/mcp-lite/v1`;
      const client = createClient(url, { transport: wire, telemetry: otelClient() });
      const answer = await inAgentStep(() => client.call("add", { a: 2, b: 3 }));
      assert.equal(String(answer), "5");
      await client.close();
      assertOneTrace(recorded, "agent step");
    });
  }

  it("our client over gRPC (HTTP/2): the metadata carries the trace context", async () => {
    recorded.reset();
    const client = createClient(grpcTransport(grpcOverH2(grpc.url)), { telemetry: otelClient() });
    const answer = await inAgentStep(() => client.call("add", { a: 4, b: 4 }));
    assert.equal(String(answer), "8");
    assertOneTrace(recorded, "agent step");
  });

  it("stdio (MCP-lite lines): _meta.traceparent parents the span, network.transport is pipe", async () => {
    recorded.reset();
    const piped = pipeServer(server);
    try {
      piped.send({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } },
      });
      await piped.answer(9);
    } finally {
      await piped.end();
    }
    const [span] = serverSpans(recorded);
    assert.equal(span.parentSpanContext?.spanId, PARENT_ID);
    assert.equal(span.attributes["network.transport"], "pipe");
    assert.equal(span.attributes["jsonrpc.request.id"], "9");
  });

  it("initialize's duration point carries the version it negotiated, not the header's default", async () => {
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const response = await server.fetch(post("/mcp", { jsonrpc: "2.0", id: 1, method: "initialize", params }, {
      accept: "application/json, text/event-stream",
    }));
    assert.equal((await response.json()).result.protocolVersion, "2025-11-25");
    const points = await recorded.histogram("mcp.server.operation.duration");
    const initialize = points.filter((point) => point.attributes["mcp.method.name"] === "initialize");
    // An earlier test initialized at 2025-06-18 (also without the header): one point per version asked.
    const versions = initialize.map((point) => point.attributes["mcp.protocol.version"]).sort();
    assert.deepEqual(versions, ["2025-06-18", "2025-11-25"]);
  });

  it("the duration histograms have points, by method and tool", async () => {
    const server = await recorded.histogram("mcp.server.operation.duration");
    const call = server.find((point) => point.attributes["gen_ai.tool.name"] === "add");
    assert.ok(call !== undefined && call.value.count > 0);
    assert.equal(call.attributes["mcp.method.name"], "tools/call");
    const client = await recorded.histogram("mcp.client.operation.duration");
    assert.ok(client.some((point) => point.attributes["gen_ai.tool.name"] === "add" && point.value.count > 0));
  });
});

/** The test's span, our client's CLIENT span under it, and the server's SERVER span under that: one trace. */
function assertOneTrace(recorded: Recorded, root: string): void {
  const spans = recorded.spans();
  const step = spans.find((span) => span.name === root)!;
  const clientSpan = spans.find((span) => span.kind === SpanKind.CLIENT && span.name === "tools/call add");
  const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER && span.name === "tools/call add");
  assert.ok(clientSpan !== undefined && serverSpan !== undefined, spans.map((s) => `${s.kind} ${s.name}`).join(", "));
  const traceId = step.spanContext().traceId;
  assert.equal(clientSpan.spanContext().traceId, traceId);
  assert.equal(serverSpan.spanContext().traceId, traceId);
  assert.equal(clientSpan.parentSpanContext?.spanId, step.spanContext().spanId);
  assert.equal(serverSpan.parentSpanContext?.spanId, clientSpan.spanContext().spanId);
}
