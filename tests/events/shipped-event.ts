/**
 * The event the poll and push tests serve (tests/events/events-poll.test.ts, events-push.test.ts): `order.shipped`,
 * each occurrence matched to the subscriber's customer, and the constants both use.
 */
import * as v from "valibot";
import { defineEvent } from "../../src/events/mod.ts";

/** SEP-3415's extension id, which a client declares to get its error numbers. */
export const EXT = "io.modelcontextprotocol/events";
/** The servers' secret (cursors are sealed with it). */
export const SECRET = "an events test secret of at least 32 bytes!";

/** `order.shipped`, to the subscribers of its customer. */
export const shipped = defineEvent("order.shipped")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload) => input.customerId === payload.customerId);
