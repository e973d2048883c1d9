/**
 * A queue out of reach, as the server answers it: a job it could not take, or a cancellation it could not act on
 * (`WorkQueue.remove`, which takes a cancelled job out of its queue so that it is never delivered: what lets a worker
 * run a job's first delivery without reading its entry first); and the result store out of reach (`guarded-store.ts`),
 * in the same words. Why: docs/guides/many-instances.md ("Workers: a queue").
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";

/**
 * The error of a queue or store out of reach: retryable (`unavailable`, with `data.retryAfterMs`), never the backend's
 * own message, which stays its `cause`.
 *
 * @param cause The backend's error.
 * @param retryAfterMs When to come back.
 * @param what What is out of reach (default: the job queue).
 * @returns The error.
 */
export function outOfReach(cause: unknown, retryAfterMs: number, what = "job queue"): ProtocolError {
  return new ProtocolError("unavailable", `The ${what} is unavailable; send the request again later`, {
    data: { reason: "unavailable", retryAfterMs },
    cause,
  });
}
