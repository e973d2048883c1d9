/**
 * A webhook delivery given up (its last attempt failed, or an answer no retry mends, or a callback refused at
 * delivery time), and a subscription suspended, as the one error line the server's reporter writes of each: the event,
 * its occurrence, the subscription and its callback's host, the job and attempt, the emit's trace, and why
 * (docs/concepts/errors.md).
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
  const names = [`event ${occ.eventId}`, `subscription ${sub.id}`, `callback ${hostOf(sub.url)}`];
  if (about.job !== undefined) names.push(`job ${about.job}`);
  names.push(`attempt ${n}`);
  if (trace !== undefined) names.push(`trace ${trace}`);
  return new DeliveryError(
    `event "${occ.name}" (${names.join(", ")}) was not delivered, given up: ${endOf(attempted)}`,
    {
      cause: "error" in attempted ? attempted.error : undefined,
    },
  );
}

/**
 * How an attempt ended, in a few words: the callback's HTTP status, else the error's message.
 *
 * @param attempted How the attempt ended.
 * @returns `HTTP 500`, the error's message, or the attempt's kind.
 */
export function endOf(attempted: Attempted): string {
  const status = "status" in attempted ? attempted.status : undefined;
  const error = "error" in attempted ? attempted.error : undefined;
  return status !== undefined ? `HTTP ${status}` : error instanceof Error ? error.message : attempted.kind;
}

/**
 * The report of a subscription suspended: what the operator of the server needs to find it and its subscriber.
 *
 * @param sub The subscription, as written suspended.
 * @param why Why: the failures in a row, or the callback refused at delivery time.
 * @returns The error, for the server's `onError`.
 */
export function subscriptionSuspended(sub: Subscription, why: string): DeliveryError {
  return new DeliveryError(
    `subscription ${sub.id} to event "${sub.name}" (callback ${hostOf(sub.url)}) was suspended: ${why}; ` +
      "no more is delivered to it until its subscriber subscribes again",
  );
}

/** A callback's host (its path and query may carry the subscriber's secrets: never in a log line). */
function hostOf(url: string): string {
  return URL.parse(url)?.host ?? "(unreadable URL)";
}
