/**
 * How a worker (`runWorker()`) tells a queued delivery from a tool's job, and where it finds who runs it: the job's
 * data starts with {@link DELIVERY_JOB_PREFIX}, and the events runtime leaves its runner on the server under
 * {@link RUNS_DELIVERIES}. The worker loads nothing of the events' code: a server without events bundles none.
 *
 * @module
 */
import type { JobWatch } from "../../jobs/queued-job.ts";

/** What a queued delivery's data starts with (its sealed token follows). */
export const DELIVERY_JOB_PREFIX = "dlv.";

/** The server's member holding its delivery runner, set once its first event is registered. */
export const RUNS_DELIVERIES: unique symbol = Symbol.for("mcplite.deliveries");

/** Runs a queued delivery on a worker (one attempt). */
export type DeliveryRunner = (
  data: string,
  start: number,
  stop: AbortSignal,
  watch?: JobWatch,
) => Promise<"done" | "refused" | "again" | { readonly delayMs: number } | { readonly failed: string }>;

/**
 * The delivery runner a server carries, if it serves events.
 *
 * @param server The server.
 * @returns Its runner, or `undefined`.
 */
export function deliveryRunnerOf(server: object): DeliveryRunner | undefined {
  return (server as { readonly [RUNS_DELIVERIES]?: DeliveryRunner })[RUNS_DELIVERIES];
}
