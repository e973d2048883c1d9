/**
 * Webhook delivery of MCP Events, the seam the events runtime calls: the callback URL check, the challenge before a
 * subscription is active, and `deliver()` of each occurrence (queued or in process, signed per Standard Webhooks,
 * retried, suspending a failing subscription). Internal: nothing here is exported by the package.
 *
 * @module
 */
export { CallbackRefusedError, checkCallback, type Lookup } from "./callback-check.ts";
export { CallbackEndpointError, verifyCallback } from "./verify-callback.ts";
export { deliver } from "./deliver.ts";
export { DEFAULT_RETRY_DELAYS_MS, Deliveries, type DeliveryConfig, type DeliveryOptions } from "./deliveries.ts";
export { attachDeliveries } from "./delivery-job.ts";
export { MAX_BODY_BYTES, webhookId } from "./signing.ts";
export {
  endSubscription,
  eventIndexKey,
  type Occurrence,
  readSubscription,
  type Subscription,
  subscriptionEntry,
  subscriptionKey,
  subscriptionOf,
  type SubscriptionStore,
  writeSubscription,
} from "./subscription.ts";
