/**
 * A server traced with OpenTelemetry, exporting to a collector over OTLP/HTTP: `otel()` makes every
 * request on every wire a SERVER span named per the semantic conventions for MCP, the handlers'
 * `ctx.log()` lines reach `console` with their trace id, and `/healthz` answers load balancers.
 * The OpenTelemetry SDK and exporter are the application's choice (here the official packages);
 * `@mcplite/sdk/otel` itself needs only `@opentelemetry/api`.
 *
 *   deno run -A --unstable-no-legacy-abort examples/otel.ts      bun run examples/otel.ts
 *
 * Spans go to `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (default `http://127.0.0.1:4318/v1/traces`, where an
 * OpenTelemetry Collector or Jaeger listens for OTLP/HTTP), as service `OTEL_SERVICE_NAME` (default
 * `notes`). Reads PORT (default 8000) and HOSTNAME (default 127.0.0.1).
 */
import process from "node:process";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { createServer, defineTool, env, serve } from "../mod.ts";
import { otel } from "../src/otel/mod.ts";

// 1. The SDK, registered with the API before the server handles anything (what `NodeSDK.start()` does).
const provider = new TracerProvider({
  resource: resourceFromAttributes({ "service.name": env("OTEL_SERVICE_NAME") ?? "notes" }),
  spanProcessors: [
    new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({
        url: env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? "http://127.0.0.1:4318/v1/traces",
      }),
    }),
  ],
});
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(
  new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
);
trace.setGlobalTracerProvider(provider);

// 2. The server: otel() traces every request, `logger` receives ctx.log() with the trace id.
const notes = new Map<string, string>();
const addNote = defineTool("add_note")
  .describe("Saves a note under a title")
  .input(v.object({ title: v.string(), text: v.string() }))
  .handle(({ title, text }, ctx) => {
    notes.set(title, text);
    ctx.log("info", `saved note "${title}"`);
    return `Saved "${title}"`;
  });
const readNote = defineTool("read_note")
  .describe("Reads a note by its title")
  .input(v.object({ title: v.string() }))
  .handle(({ title }) => notes.get(title) ?? `No note titled "${title}"`);

/** The traced server (exported for tests). */
export const server = createServer({ name: "notes", version: "1.0.0", logger: console, health: true })
  .tool(addNote)
  .tool(readNote)
  .use(otel());

if (import.meta.main) {
  const listener = await serve(server);
  // Spans still in the batch are sent before the process ends.
  const stop = async () => {
    await listener.close();
    await provider.shutdown();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
