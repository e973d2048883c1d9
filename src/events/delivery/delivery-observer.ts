/**
 * Who observes webhook deliveries: telemetry (`otel()` from `@mcplite/sdk/otel`) carries it on its request
 * middleware under {@link OBSERVES_DELIVERIES}, and delivery finds it among the server's middleware, as a worker
 * finds its job observer. Plain values here, no OpenTelemetry: only `@mcplite/sdk/otel` loads the API.
 *
 * @module
 */

/** How one delivery attempt ended, as telemetry counts it. */
export type DeliveryOutcome =
  /** 2xx: delivered. */
  | "delivered"
  /** Not delivered, tried again later (3xx, 408, 429, 5xx, a network error, a timeout). */
  | "retried"
  /** Failed for good: its last attempt, or an answer no retry mends (another 4xx). */
  | "failed"
  /** 413: the occurrence dropped for this subscription. */
  | "dropped"
  /** 410: the subscription ended. */
  | "ended"
  /** The callback refused at delivery time (its host now resolves to a refused address): suspended. */
  | "refused"
  /** Nothing sent: the subscription or occurrence was gone, or the delivery was stopped. */
  | "skipped";

/** One attempt, as its observer hears of it. */
export interface DeliveryAttempt {
  /** The event's name. */
  readonly event: string;
  /** The subscription's id. */
  readonly subscriptionId: string;
  /** Which attempt, from 1. */
  readonly attempt: number;
  /** The `traceparent` the attempt's span is a child of (the worker's job span), if any. */
  readonly parent?: string;
  /** The `traceparent` of the emit, which the attempt's span links to. */
  readonly emit?: string;
}

/** What observes deliveries: a span per attempt, counters by outcome. */
export interface DeliveryObserver {
  /** The `traceparent` of the active span (the emit's), carried with the delivery. */
  current(): string | undefined;
  /**
   * An attempt starts.
   *
   * @returns Called once when it ended: how, and the HTTP status the callback answered, if it answered.
   */
  attempt(attempt: DeliveryAttempt): (end: { outcome: DeliveryOutcome; status?: number; error?: unknown }) => void;
  /** A subscription was suspended. */
  suspended(event: string): void;
}

/** A request middleware that observes deliveries carries, under this symbol, what makes its observer. */
export const OBSERVES_DELIVERIES: unique symbol = Symbol.for("mcplite.deliveries.observer");

/** A request middleware that observes deliveries. */
export interface DeliveryObserving {
  /** Makes the observer of a server's deliveries (called once per server). */
  readonly [OBSERVES_DELIVERIES]?: () => DeliveryObserver;
}

/**
 * The first of the server's request middleware that observes deliveries.
 *
 * @param middleware The server's request middleware.
 * @returns What makes its observer, or `undefined`.
 */
export function deliveryObserverOf(middleware: readonly unknown[]): (() => DeliveryObserver) | undefined {
  for (const each of middleware) {
    const make = (each as DeliveryObserving | null)?.[OBSERVES_DELIVERIES];
    if (make !== undefined) return make;
  }
  return undefined;
}
