/**
 * `server.emit()` is typed by the registered events: a name outside them, and a payload key the event's payload
 * schema does not have, fail `deno check`. Checked, never run.
 */
import * as v from "valibot";
import { createServer, defineTool, type Server } from "../../mod.ts";
import { defineEvent } from "../../src/events/mod.ts";

const shipped = defineEvent("order.shipped")
  .input(v.object({ customerId: v.string() }))
  .payload(v.object({ orderId: v.string(), customerId: v.string() }))
  .match((input, payload, caller) => input.customerId === payload.customerId && caller.principal !== "");
const pinged = defineEvent("ping");
const server = createServer({ name: "typed", version: "1.0.0" })
  .tool(defineTool("noop").handle(() => "ok"))
  .event(shipped)
  .event(pinged);

export const ok = [
  server.emit("order.shipped", { orderId: "o1", customerId: "c1" }),
  server.emit("order.shipped", { orderId: "o1", customerId: "c1" }, { id: "evt_fixed" }),
  server.emit("ping", { anything: 1 }),
  server.call("noop", {}), // the tools stay typed after .event()
];

// @ts-expect-error an unknown event
export const unknown = server.emit("order.lost", { orderId: "o1", customerId: "c1" });
// @ts-expect-error a payload key the event does not have
export const wrongKey = server.emit("order.shipped", { orderId: "o1", customerId: "c1", extra: true });
// @ts-expect-error a payload missing a key
export const missing = server.emit("order.shipped", { orderId: "o1" });
// @ts-expect-error a payload of the wrong type
export const wrongType = server.emit("order.shipped", { orderId: 1, customerId: "c1" });
// @ts-expect-error the match sees the arguments' types
export const badMatch = defineEvent("a.b").input(v.object({ n: v.number() })).match((input) => input.n === "x");

// A server with events still passes where any server is expected.
export function takesAny(s: Server): string {
  return s.name;
}
export const named = takesAny(server);

// group() serves a member's events under its prefix: the group's type names them so (for the typed client).
const app = createServer({ name: "app", version: "1.0.0" }).event(defineEvent("app.ready")).group("shop", server);
export const grouped = [
  app.emit("shop.order.shipped", { orderId: "o1", customerId: "c1" }),
  app.emit("app.ready", {}),
  app.call("shop.noop", {}),
];
// @ts-expect-error the member's own name is not served by the group
export const ungrouped = app.emit("order.shipped", { orderId: "o1", customerId: "c1" });
// @ts-expect-error a grouped event's payload stays typed
export const groupedKey = app.emit("shop.order.shipped", { orderId: "o1" });
const under = createServer({ name: "flat", version: "1.0.0" }).group(server, { onResourceClash: "skip" });
export const flat = under.emit("ping", {});
export const separated = createServer({ name: "sep", version: "1.0.0" }).group("s", server, { separator: "_" })
  .emit("s_ping", {});

// proxy<typeof server>() is typed with the remote's events too, and a group of it with them under its prefix.
export async function proxied(): Promise<void> {
  const { proxy } = await import("../../src/proxy/mod.ts");
  const gateway = createServer({ name: "gw", version: "1.0.0" }).group("r", await proxy<typeof server>("http://x"));
  await gateway.emit("r.order.shipped", { orderId: "o1", customerId: "c1" });
  // @ts-expect-error the remote's event is under the prefix
  await gateway.emit("order.shipped", { orderId: "o1", customerId: "c1" });
  const untyped = await proxy("http://x");
  // @ts-expect-error an untyped remote brings no typed events
  await untyped.emit("order.shipped", {});
}
