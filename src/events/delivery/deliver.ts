/**
 * Delivers an occurrence to a subscription: through the server's queue when it has one (a job its workers run, its
 * retries durable), else in this process, each retry after a timer that keeps no process alive. The schedule is the
 * same either way (1 s, 5 s, 30 s, 2 min, 10 min by default), and so is the `webhook-id` of every attempt.
 *
 * @module
 */
import type { Deliveries } from "./deliveries.ts";
import { enqueueDelivery } from "./delivery-job.ts";
import { attemptAndSettle } from "./settle.ts";
import { deliveryBody } from "./signing.ts";
import { type Occurrence, readSubscription, type Subscription } from "./subscription.ts";
import { deliveryPending } from "./watermark.ts";

/**
 * How long a pending delivery's note outlives its retry schedule, in ms: one lost with its process (in process, no
 * queue) holds the watermark back that long at most.
 */
const PENDING_SLACK_MS = 3_600_000;

/**
 * Hands an occurrence over for delivery to one subscription: queued, or started in this process.
 *
 * @param sub The subscription (active), as emit read it.
 * @param occ The occurrence.
 * @param d The server's deliveries.
 * @returns Once the delivery is queued (with a queue) or under way (without one); its outcome is recorded on the
 *   subscription (failures, suspension, its end on 410), and what fails unheard goes to `onError`.
 * @throws {RangeError} When the occurrence's body is over 256 KiB: it is never sent. What the queue's `add` rejects with.
 *
 * @example
 * ```ts ignore
 * await deliver(subscription, { eventId, name: "order.shipped", timestamp, data }, deliveries);
 * ```
 */
export async function deliver(sub: Subscription, given: Occurrence, d: Deliveries): Promise<void> {
  deliveryBody(given); // refused now, not at each attempt
  let occ = given;
  // Pending until done with: the watermark later deliveries of the subscription carry stays before it.
  if (sub.profile === "sep" && given.place !== undefined) {
    const now = d.now();
    const until = now + d.retryDelaysMs.reduce((sum, ms) => sum + ms, 0) + PENDING_SLACK_MS;
    const place = { ...given.place, until };
    await deliveryPending(d.store, sub.id, place, now);
    occ = { ...given, place };
  }
  const emit = d.observer()?.current();
  if (d.queue !== undefined) return await enqueueDelivery(d, sub, occ, emit);
  inProcess(d, sub, occ, emit).catch(d.onError);
}

/** Attempts in this process until delivered, done with, or out of attempts; each retry re-reads the subscription. */
async function inProcess(d: Deliveries, first: Subscription, occ: Occurrence, emit: string | undefined): Promise<void> {
  let sub = first;
  for (let n = 1;; n++) {
    const { delayMs } = await attemptAndSettle(d, sub, occ, n, { emit });
    if (delayMs === undefined || !await d.wait(delayMs)) return;
    const now = await readSubscription(d.store, sub.id);
    // Ended, expired or suspended meanwhile, or created again since (another life: not this occurrence's).
    if (now === undefined || now.status !== "active" || now.life !== first.life) return;
    sub = now;
  }
}
