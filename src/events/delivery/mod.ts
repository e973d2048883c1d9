/**
 * Webhook delivery of MCP Events, the seam the events runtime calls: the callback URL check, the challenge before a
 * subscription is active, and `deliver()` of each occurrence (queued or in process, signed per Standard Webhooks,
 * retried, suspending a failing subscription). Internal: nothing here is exported by the package.
 *
 * @example How the events runtime wires it, once per server (the store must keep the set methods)
 * ```ts ignore
 * const deliveries = new Deliveries({ store, codec, queue, allowCallbacks, middleware: () => runtime.middleware });
 * attachDeliveries(server, deliveries); // runWorker(server) runs the queued deliveries with it
 * await checkCallback(url, deliveries.allow, deliveries.lookup); // subscribe: -32012 when refused
 * await verifyCallback(pending, deliveries); // a new subscription: -32015 when the challenge fails
 * await writeSubscription(store, { ...pending, status: "active" }, Date.now());
 * await deliver(subscription, occurrence, deliveries); // emit, per matching subscription
 * ```
 *
 * @module
 */
export { CallbackRefusedError, checkCallback, type Lookup } from "./callback-check.ts";
export { CallbackEndpointError, verifyCallback } from "./verify-callback.ts";
export { deliver } from "./deliver.ts";
export { DEFAULT_RETRY_DELAYS_MS, Deliveries, type DeliveryConfig, type DeliveryOptions } from "./deliveries.ts";
export { attachDeliveries } from "./delivery-job.ts";
export { deliveryBody, MAX_BODY_BYTES } from "./signing.ts";
export {
  clearFailures,
  endSubscription,
  eventIndex,
  type Occurrence,
  readSubscription,
  type Subscription,
  subscriptionOf,
  subscriptions,
  writeSubscription,
} from "./subscription.ts";
