/**
 * The official OpenTelemetry SDK registered for a test: an in-memory span exporter, a metric reader
 * the test collects from, AsyncLocalStorage context, and the W3C Trace Context propagator.
 */
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

/** A reader the test collects on demand. */
class CollectingReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** What a registered SDK recorded. */
export interface Recorded {
  /** The finished spans. */
  spans(): ReadableSpan[];
  /** The points of a histogram, by metric name. */
  histogram(name: string): Promise<DataPoint<Histogram>[]>;
  /** Forgets the spans so far. */
  reset(): void;
  /** Unregisters everything. */
  close(): Promise<void>;
}

/**
 * Registers the SDK globally, as an application does.
 *
 * @returns What it records.
 */
export function registerSdk(): Recorded {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async histogram(name) {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)
        .filter((metric) => metric.descriptor.name === name)
        .flatMap((metric) => metric.dataPoints as DataPoint<Histogram>[]);
    },
    async close() {
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/**
 * Runs `work` inside an active span named `agent step`, as an agent's step calling a tool.
 *
 * @param work The work.
 * @returns What it gave.
 */
export function inAgentStep<T>(work: () => Promise<T>): Promise<T> {
  return trace.getTracer("agent").startActiveSpan("agent step", async (step) => {
    try {
      return await work();
    } finally {
      step.end();
    }
  });
}
