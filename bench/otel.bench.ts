/**
 * What `otel()` (`@mcplite/sdk/otel`) costs on the in-process MCP-lite `tools/call` row, in CPU time
 * (`cpuTimePerCall`: interleaved blocks, the median kept, readable on a loaded machine): first with no
 * OpenTelemetry SDK registered (the API's no-op, the goal being at most 3% over the plain server), then
 * with the official SDK registered as an application does (AsyncLocalStorage context, W3C propagator,
 * every span sampled and batched to an exporter that drops them, the duration histogram aggregated).
 * A server with one pass-through middleware is the reference for what any request middleware costs.
 *
 * Run: `bun bench/otel.bench.ts` · `deno run -A bench/otel.bench.ts`.
 *
 * @module
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { createServer, defineTool } from "../mod.ts";
import { type CpuRow, cpuTimePerCall, runtime } from "./harness.ts";
import { ADD_PARAMS, lite } from "./requests.ts";
import { AddInput } from "./servers/common.ts";
import { ours, oursTraced } from "./servers/ours.ts";

const SUM = '"structuredContent":{"sum":3}';
const LITE = lite("/calltools", "tools/call", ADD_PARAMS);
const add = defineTool("add").describe("Adds two numbers").input(AddInput).handle(({ a, b }) => ({ sum: a + b }));
const passThrough = createServer({ name: "bench", version: "1.0.0" }).tool(add).use((_call, next) => next());

const PLAIN = "ours · MCP-lite";
const ROWS_WITHOUT: CpuRow[] = [
  [PLAIN, ours.fetch, LITE],
  ["ours · MCP-lite, one pass-through middleware", passThrough.fetch, LITE],
  ["ours · MCP-lite, otel() without a provider", oursTraced.fetch, LITE],
];
const ROWS_WITH: CpuRow[] = [
  [PLAIN, ours.fetch, LITE],
  ["ours · MCP-lite, otel() with the SDK registered", oursTraced.fetch, LITE],
];

/** Prints CPU µs per call of each row and its ratio to the plain server. */
function print(title: string, perCall: Map<string, number>): void {
  const { name, version } = runtime();
  console.log(`\n${title}, CPU µs per call (median of 40 blocks) — ${name} ${version}`);
  const plain = perCall.get(PLAIN)!;
  for (const [row, us] of perCall) {
    console.log(`  ${row.padEnd(48)} ${us.toFixed(2).padStart(7)} µs ${(us / plain).toFixed(3)}×`);
  }
}

print("tools/call, otel() without an OpenTelemetry SDK", await cpuTimePerCall(ROWS_WITHOUT, SUM));

/** An exporter that drops what it is given: the export itself is not what is measured. */
const dropping: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};
/** A reader never collected: the histogram still aggregates every point. */
class IdleReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
const tracerProvider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: dropping })] });
const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);
try {
  print("tools/call, otel() with the OpenTelemetry SDK registered", await cpuTimePerCall(ROWS_WITH, SUM));
} finally {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
}
