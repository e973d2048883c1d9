/**
 * `otelClient()` against a real server traced by `otel()`, over MCP 2026-07-28, MCP 2025 and MCP-lite: every
 * request the client sends (its own `server/discover` probe, the tool list and `initialize` included) is a
 * CLIENT span of its own under the caller's span, with `jsonrpc.request.id`, `mcp.protocol.version` (MCP),
 * `server.address`, `server.port` and `network.transport`, and exactly one SERVER child (the trace context
 * travels in `params._meta`, MCP SEP-414); `mcp.client.operation.duration` carries the same attributes
 * but the id. MCP's invalid arguments, which the wire answers as an `isError` result, are `invalid_arguments`
 * on both spans, as on MCP-lite.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type HrTime, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { createServer, defineTool, mcpBinding, mcpLiteBinding, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import { createWebSocketTransport } from "../../src/client/transports/websocket.ts";
import { webSocketBinding } from "../../src/websocket/mod.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { inAgentStep, type Recorded, registerSdk } from "./telemetry.ts";

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);

/** The wires a client speaks: its transport, the endpoint's path, and the MCP revision it asks for. */
const WIRES = [
  { label: "MCP 2026-07-28", transport: "mcp", path: "/mcp", version: "2026-07-28" },
  { label: "MCP 2025-11-25", transport: "mcp", path: "/mcp", version: "2025-11-25" },
  { label: "MCP-lite", transport: "mcp-lite", path: "/mcp-lite/v1", version: undefined },
] as const;

function nanos([seconds, nanoseconds]: HrTime): bigint {
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds);
}

function describeSpans(spans: ReadableSpan[]): string {
  return spans.map((span) => `${SpanKind[span.kind]} ${span.name}`).join(", ");
}

describe("otelClient(): one CLIENT span per request, each the parent of one SERVER span", () => {
  let recorded: Recorded;
  let listener: Listener;
  let port: number;
  // otel() may be created before the SDK is registered: it reads the providers at each request.
  const server = createServer({
    name: "traced",
    version: "1.0.0",
    heartbeatMs: 0,
    bindings: [mcpLiteBinding(), mcpBinding(), webSocketBinding()],
  }).tool(add).use(otel());
  before(async () => {
    recorded = registerSdk();
    listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    port = Number(new URL(listener.url).port);
  });
  after(async () => {
    await listener.close();
    await recorded.close();
  });

  for (const wire of WIRES) {
    it(`${wire.label}: each request its own CLIENT span, with the attributes its SERVER span has`, async () => {
      recorded.reset();
      const client = createClient(`${listener.url}${wire.path}`, {
        transport: wire.transport,
        protocolVersion: wire.version,
        telemetry: otelClient(),
      });
      try {
        assert.equal(String(await inAgentStep(() => client.call("add", { a: 2, b: 3 }))), "5");
      } finally {
        await client.close();
      }
      const spans = recorded.spans();
      const step = spans.find((span) => span.name === "agent step")!;
      const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
      const expected = wire.transport === "mcp-lite"
        ? ["tools/call add"]
        : wire.version === "2026-07-28"
        ? ["server/discover", "tools/list", "tools/call add"]
        : ["initialize", "tools/call add"];
      assert.deepEqual(clients.map((span) => span.name).sort(), [...expected].sort(), describeSpans(spans));
      for (const span of clients) {
        const name = `${wire.label} ${span.name}`;
        // Siblings under the caller's span (OpenTelemetry: a CLIENT span's parent is the active context).
        assert.equal(span.parentSpanContext?.spanId, step.spanContext().spanId, name);
        const children = spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
        assert.deepEqual(children.map((s) => `${SpanKind[s.kind]} ${s.name}`), [`SERVER ${span.name}`], name);
        const [child] = children;
        assert.equal(child.spanContext().traceId, span.spanContext().traceId, name);
        assert.equal(typeof span.attributes["jsonrpc.request.id"], "string", name);
        assert.equal(span.attributes["jsonrpc.request.id"], child.attributes["jsonrpc.request.id"], name);
        assert.equal(span.attributes["mcp.protocol.version"], child.attributes["mcp.protocol.version"], name);
        assert.equal(span.attributes["mcp.protocol.version"], wire.version, name);
        assert.equal(span.attributes["mcp.session.id"], child.attributes["mcp.session.id"], name);
        assert.equal(span.attributes["server.address"], "127.0.0.1", name);
        assert.equal(span.attributes["server.port"], port, name);
        assert.equal(span.attributes["network.transport"], "tcp", name);
        assert.equal(child.attributes["network.transport"], "tcp", name);
      }
      // The call's span covers its own round trip only: it starts once the requests made for it ended
      // (within a millisecond: the SDK takes a span's start from Date.now(), whole milliseconds, so a
      // request answered within one millisecond starts "at" the call's start, and its end from that start
      // plus a duration, each rounded).
      const call = clients.find((span) => span.name === "tools/call add")!;
      for (const span of clients.filter((s) => s !== call)) {
        assert.ok(nanos(span.startTime) <= nanos(call.startTime), `${span.name} starts before tools/call`);
        assert.ok(nanos(span.endTime) <= nanos(call.startTime) + 1_000_000n, `${span.name} ends before tools/call`);
      }
    });
  }

  it("MCP-lite over a WebSocket: the socket's peer, network.transport tcp, one SERVER child", async () => {
    recorded.reset();
    const url = `${listener.url.replace("http:", "ws:")}/mcp-lite/v1/ws`;
    const client = createClient(createWebSocketTransport(url), { telemetry: otelClient() });
    try {
      // The list first: a request MCP-lite sends without an id, which the socket's JSON-RPC message needs.
      assert.deepEqual((await client.listTools()).map((tool) => tool.name), ["add"]);
      assert.equal(String(await inAgentStep(() => client.call("add", { a: 1, b: 1 }))), "2");
    } finally {
      await client.close();
    }
    const spans = recorded.spans();
    const call = spans.find((span) => span.kind === SpanKind.CLIENT && span.name === "tools/call add");
    assert.ok(call !== undefined, describeSpans(spans));
    assert.equal(call.attributes["server.address"], "127.0.0.1");
    assert.equal(call.attributes["server.port"], port);
    assert.equal(call.attributes["network.transport"], "tcp");
    assert.equal(typeof call.attributes["jsonrpc.request.id"], "string");
    const children = spans.filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId);
    assert.deepEqual(children.map((s) => `${SpanKind[s.kind]} ${s.name}`), ["SERVER tools/call add"]);
    assert.equal(call.attributes["jsonrpc.request.id"], children[0].attributes["jsonrpc.request.id"]);
  });

  it("in process (our client given the server): the same spans, and no network attributes", async () => {
    recorded.reset();
    const client = createClient(server, { transport: "mcp", telemetry: otelClient() });
    try {
      assert.equal(String(await inAgentStep(() => client.call("add", { a: 1, b: 2 }))), "3");
    } finally {
      await client.close();
    }
    const spans = recorded.spans();
    const clients = spans.filter((span) => span.kind === SpanKind.CLIENT);
    assert.deepEqual(clients.map((span) => span.name).sort(), ["server/discover", "tools/call add", "tools/list"]);
    for (const span of clients) {
      const children = spans.filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId);
      assert.deepEqual(children.map((s) => `${SpanKind[s.kind]} ${s.name}`), [`SERVER ${span.name}`], span.name);
      assert.equal(span.attributes["jsonrpc.request.id"], children[0].attributes["jsonrpc.request.id"], span.name);
      assert.equal(span.attributes["server.address"], undefined, span.name);
      assert.equal(span.attributes["network.transport"], undefined, span.name);
    }
  });

  it("mcp.client.operation.duration: the span's attributes but the id (unbounded cardinality)", async () => {
    const points = await recorded.histogram("mcp.client.operation.duration");
    for (const method of ["server/discover", "initialize", "tools/list", "tools/call"]) {
      const point = points.find((p) =>
        p.attributes["mcp.method.name"] === method && p.attributes["server.port"] === port
      );
      assert.ok(point !== undefined, `no point for ${method} to port ${port}`);
      assert.equal(point.attributes["server.address"], "127.0.0.1", method);
      assert.equal(point.attributes["network.transport"], "tcp", method);
    }
    for (const point of points) {
      assert.equal(point.attributes["jsonrpc.request.id"], undefined);
      assert.equal(point.attributes["mcp.session.id"], undefined);
    }
    const versions = new Set(points.map((p) => p.attributes["mcp.protocol.version"]));
    assert.ok(versions.has("2026-07-28") && versions.has("2025-11-25"), [...versions].join(", "));
  });

  for (const version of ["2026-07-28", "2025-11-25"]) {
    it(`MCP ${version}, invalid arguments: the wire answers an isError result, both spans invalid_arguments`, async () => {
      recorded.reset();
      const client = createClient(`${listener.url}/mcp`, {
        transport: "mcp",
        protocolVersion: version,
        telemetry: otelClient(),
      });
      try {
        const wrong = { a: 1, b: "two" } as unknown as { a: number; b: number };
        await assert.rejects(client.call("add", wrong), /Invalid arguments for tool add/);
      } finally {
        await client.close();
      }
      const spans = recorded.spans().filter((span) => span.name === "tools/call add");
      assert.deepEqual(spans.map((span) => SpanKind[span.kind]).sort(), ["CLIENT", "SERVER"]);
      for (const span of spans) {
        assert.equal(span.attributes["error.type"], "invalid_arguments", SpanKind[span.kind]);
        assert.equal(span.attributes["rpc.response.status_code"], undefined, SpanKind[span.kind]);
        assert.equal(span.status.code, SpanStatusCode.ERROR);
        assert.match(span.status.message ?? "", /Invalid arguments for tool add/);
      }
    });
  }

  it("MCP-lite, invalid arguments: the wire answers -32602, both spans invalid_arguments", async () => {
    recorded.reset();
    const client = createClient(`${listener.url}/mcp-lite/v1`, { transport: "mcp-lite", telemetry: otelClient() });
    const wrong = { a: 1, b: "two" } as unknown as { a: number; b: number };
    await assert.rejects(client.call("add", wrong), /Invalid arguments for tool add/);
    await client.close();
    const spans = recorded.spans().filter((span) => span.name === "tools/call add");
    assert.equal(spans.length, 2);
    for (const span of spans) {
      assert.equal(span.attributes["error.type"], "invalid_arguments", SpanKind[span.kind]);
      assert.equal(span.attributes["rpc.response.status_code"], "-32602", SpanKind[span.kind]);
    }
  });
});
