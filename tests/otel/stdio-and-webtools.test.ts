/**
 * `otelClient()` on the wires where the trace context leaves the process or takes another path: our
 * stdio client launching a server traced in its own process (its spans come back over OTLP/HTTP to a
 * receiver on 127.0.0.1), and the Webtools metadata GET, which carries the `traceparent` header like
 * every other request (W3C Trace Context §3). Each gives CLIENT → SERVER in one trace.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { context, ROOT_CONTEXT, SpanKind } from "@opentelemetry/api";
import * as v from "valibot";
import { createServer, defineTool, serve } from "../../mod.ts";
import { webtoolsBinding } from "../../src/bindings/webtools/mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { createWebtoolsTransport } from "../../src/client/transports/webtools.ts";
import { otel, otelClient } from "../../src/otel/mod.ts";
import { runtimeCommand } from "../helpers/stdio.ts";
import { type OtlpReceiver, SPAN_KIND_SERVER, startOtlpReceiver } from "./otlp-receiver.ts";
import { inAgentStep, type Recorded, registerSdk } from "./telemetry.ts";

const CHILD = fileURLToPath(new URL("../helpers/traced-stdio-server.ts", import.meta.url));

describe("otelClient(): stdio and the Webtools metadata GET", () => {
  let recorded: Recorded;
  let receiver: OtlpReceiver;
  before(async () => {
    recorded = registerSdk();
    receiver = await startOtlpReceiver();
  });
  after(async () => {
    await receiver.close();
    await recorded.close();
  });

  it("our stdio client: the server's span, exported by its own process, is the child of our CLIENT span", async () => {
    recorded.reset();
    const command = runtimeCommand(CHILD);
    const env = { ...process.env, OTLP_TRACES_URL: receiver.tracesUrl } as Record<string, string>;
    const client = createClient(createStdioTransport({ ...command, env }), { telemetry: otelClient() });
    let received: Awaited<ReturnType<OtlpReceiver["waitFor"]>>;
    try {
      assert.equal(String(await inAgentStep(() => client.call("add", { a: 3, b: 4 }))), "7");
      // The child exports once its span ends, after it answered: wait for it before ending the child,
      // or a quick close (Deno's) ends the child while its export is still on its way.
      received = await receiver.waitFor((span) => span.kind === SPAN_KIND_SERVER && span.name === "tools/call add");
    } finally {
      await client.close();
    }
    const clientSpan = recorded.spans().find((span) => span.kind === SpanKind.CLIENT && span.name === "tools/call add");
    assert.ok(clientSpan !== undefined, recorded.spans().map((span) => span.name).join(", "));
    // The conventions' `network.transport` for stdio is `pipe`, and there is no server address.
    assert.equal(clientSpan.attributes["network.transport"], "pipe");
    assert.equal(clientSpan.attributes["server.address"], undefined);
    assert.ok(received !== undefined, "the child's SERVER span never arrived");
    const serverSpan = received.span;
    assert.equal(serverSpan.traceId, clientSpan.spanContext().traceId);
    assert.equal(serverSpan.parentSpanId, clientSpan.spanContext().spanId);
    // Both ends name the request by the id it travelled with.
    const id = serverSpan.attributes?.find((attribute) => attribute.key === "jsonrpc.request.id")?.value.stringValue;
    assert.equal(clientSpan.attributes["jsonrpc.request.id"], id);
    assert.equal(typeof id, "string");
  });

  it("Webtools: the metadata GET (tools/list) carries the trace context, CLIENT → SERVER in one trace", async () => {
    const add = defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() }))
      .handle(({ a, b }) => a + b);
    const server = createServer({ name: "wt", version: "1.0.0", bindings: [webtoolsBinding()] }).tool(add).use(otel());
    const listener = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
    // The request leaves the process's context as over a network: the trace context travels in headers only.
    const fetchOutside = (request: Request) => context.with(ROOT_CONTEXT, () => fetch(request));
    const client = createClient(createWebtoolsTransport(`${listener.url}/webtools`, { fetch: fetchOutside }), {
      telemetry: otelClient(),
    });
    recorded.reset();
    const tools = await inAgentStep(() => client.listTools()).finally(() => listener.close());
    assert.deepEqual(tools.map((tool) => tool.name), ["add"]);
    const spans = recorded.spans();
    const clientSpan = spans.find((span) => span.kind === SpanKind.CLIENT && span.name === "tools/list");
    const serverSpan = spans.find((span) => span.kind === SpanKind.SERVER && span.name === "tools/list");
    assert.ok(clientSpan && serverSpan, spans.map((span) => `${span.kind} ${span.name}`).join(", "));
    assert.equal(serverSpan.spanContext().traceId, clientSpan.spanContext().traceId);
    assert.equal(serverSpan.parentSpanContext?.spanId, clientSpan.spanContext().spanId);
  });
});
