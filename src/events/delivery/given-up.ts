/**
 * A webhook delivery given up (its last attempt failed, or an answer no retry mends, or a callback refused at
 * delivery time) as the one error line the server's reporter writes of it: the event, its occurrence, the
 * subscription, the job and attempt, the emit's trace, and why (docs/concepts/errors.md).
 *
 * @module
 */
import { parseTraceparent } from "../../core/call/trace-context.ts";
import type { Attempted } from "./attempt.ts";
import type { Occurrence, Subscription } from "./subscription.ts";

/** A delivery given up, as reported: its message names what an operator needs to find it. */
export class DeliveryError extends Error {
  override readonly name = "DeliveryError";
  /** Its message, with no frame: where the SDK made the report says nothing of the delivery. */
  override readonly stack = `DeliveryError: ${this.message}`;
}

/**
 * The report of a delivery given up.
 *
 * @param occ The occurrence.
 * @param sub The subscription it was for.
 * @param n Its last attempt, from 1.
 * @param attempted How that attempt ended.
 * @param about The delivery's job, when a worker ran it, and the emit's `traceparent`, when traced.
 * @returns The error, for the server's `onError`.
 */
export function deliveryGivenUp(
  occ: Occurrence,
  sub: Subscription,
  n: number,
  attempted: Attempted,
  about: { readonly job?: string; readonly emit?: string },
): DeliveryError {
  const trace = about.emit === undefined ? undefined : parseTraceparent(about.emit)?.traceId;
  const names = [`event ${occ.eventId}`, `subscription ${sub.id}`];
  if (about.job !== undefined) names.push(`job ${about.job}`);
  names.push(`attempt ${n}`);
  if (trace !== undefined) names.push(`trace ${trace}`);
  const status = "status" in attempted ? attempted.status : undefined;
  const error = "error" in attempted ? attempted.error : undefined;
  const why = status !== undefined ? `HTTP ${status}` : error instanceof Error ? error.message : attempted.kind;
  return new DeliveryError(`event "${occ.name}" (${names.join(", ")}) was not delivered, given up: ${why}`, {
    cause: error,
  });
}
