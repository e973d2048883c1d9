/**
 * A queue out of reach, as the server answers it: a job it could not take, or a cancellation it could not act on
 * (`WorkQueue.remove`, which takes a cancelled job out of its queue so that it is never delivered: what lets a worker
 * run a job's first delivery without reading its entry first). Why: docs/guides/many-instances.md ("Workers: a queue").
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/**
 * The error of a queue out of reach: retryable (`unavailable`, with `data.retryAfterMs`), as a store outage is.
 *
 * @param cause The queue's error.
 * @param retryAfterMs When to come back.
 * @returns The error.
 */
export function queueUnavailable(cause: unknown, retryAfterMs: number): ProtocolError {
  return new ProtocolError("unavailable", "The job queue is unavailable; send the request again later", {
    data: { reason: "unavailable", retryAfterMs },
    cause,
  });
}
