/**
 * A worker's metrics (`runWorker()` with `otel()` among the server's middleware), per the OpenTelemetry
 * semantic conventions for messaging (Messaging metrics, status Development) where they have one:
 * `messaging.client.consumed.messages` (jobs taken, by outcome) and `messaging.process.duration`; and
 * the SDK's own, `mcplite.worker.jobs.running` (jobs running now) and `mcplite.worker.job.lag` (from a
 * job's enqueue to its start on a worker). Made from the meter provider registered when the worker starts.
 *
 * @module
 */
import { type Attributes, metrics } from "@opentelemetry/api";
import { durationHistogram, SCOPE } from "./conventions.ts";

/** What a worker records its jobs with. */
export interface WorkerMetrics {
  /** A job was taken (+1) or ended (-1): the jobs running now. */
  readonly running: (delta: number, attributes: Attributes) => void;
  /** A job was read: the seconds from its enqueue to its start here. */
  readonly lag: (seconds: number, attributes: Attributes) => void;
  /** A job ended: one job consumed, and how long it ran, in seconds. */
  readonly ended: (seconds: number, attributes: Attributes) => void;
}

/**
 * Creates a worker's instruments on the meter provider registered now (the metrics API has no proxy
 * provider: start the SDK before the worker).
 *
 * @returns The recorders.
 */
export function workerMetrics(): WorkerMetrics {
  const meter = metrics.getMeterProvider().getMeter(SCOPE);
  const running = meter.createUpDownCounter("mcplite.worker.jobs.running", {
    unit: "{job}",
    description: "Queued jobs this worker runs now",
  });
  const lag = durationHistogram(
    meter,
    "mcplite.worker.job.lag",
    "Time from a job's enqueue (the call that queued it) to its start on a worker",
  );
  const consumed = meter.createCounter("messaging.client.consumed.messages", {
    unit: "{message}",
    description: "Queued jobs delivered to this worker, by how their run ended (mcplite.job.outcome)",
  });
  const duration = durationHistogram(
    meter,
    "messaging.process.duration",
    "Duration of a queued job's run on a worker, from its take to its end",
  );
  return {
    running: (delta, attributes) => running.add(delta, attributes),
    lag: (seconds, attributes) => lag.record(seconds, attributes),
    ended: (seconds, attributes) => {
      consumed.add(1, attributes);
      duration.record(seconds, attributes);
    },
  };
}
