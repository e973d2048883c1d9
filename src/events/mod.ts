/**
 * MCP Events (SEP-3415 "Events Extension" and ChatGPT's MCP Events): events a server defines, registers with
 * `server.event()` and raises with `server.emit()`, delivered to subscribers' webhooks signed per Standard Webhooks.
 *
 * @example
 * ```ts ignore
 * import * as v from "valibot";
 * import { createServer } from "@mcplite/sdk";
 * import { defineEvent } from "@mcplite/sdk/events";
 *
 * const shipped = defineEvent("order.shipped")
 *   .input(v.object({ customerId: v.string() }))
 *   .payload(v.object({ orderId: v.string(), customerId: v.string() }))
 *   .match((input, payload) => input.customerId === payload.customerId);
 * const server = createServer({ name: "shop", version: "1.0.0" }).event(shipped);
 * await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
 * ```
 *
 * @module
 */
export { defineEvent } from "./define-event.ts";
export type { TaskEnded } from "../core/definitions/event.ts";
export {
  type DeliveredEvent,
  type DeliveryInfo,
  eventWebhook,
  type EventWebhookOptions,
  type ReceivedEvent,
} from "./receiver/event-webhook.ts";
