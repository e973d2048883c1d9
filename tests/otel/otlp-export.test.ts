/**
 * End to end over OTLP/HTTP: the official exporter (`@opentelemetry/exporter-trace-otlp-http`, JSON
 * encoding) sends what `otel()` and `otelClient()` recorded to a receiver this test starts on
 * 127.0.0.1, which decodes the OTLP/JSON export requests: the agent's span, our client's CLIENT span
 * and the server's SERVER span arrive in one trace, with the conventions' attributes and the
 * instrumentation scope `@mcplite/sdk`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import type { Listener } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { type OtlpReceiver, SPAN_KIND_CLIENT, SPAN_KIND_SERVER, startOtlpReceiver } from "./otlp-receiver.ts";
import { inAgentStep } from "./telemetry.ts";

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);

describe("OTLP/HTTP export of otel() and otelClient() spans", () => {
  let receiver: OtlpReceiver;
  let app: Listener;
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
    const server = createServer({ name: "exported", version: "1.0.0", heartbeatMs: 0 }).tool(add).use(otel());
    app = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
  });

  after(async () => {
    trace.disable();
    propagation.disable();
    context.disable();
    await provider.shutdown();
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
});
