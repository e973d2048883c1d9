/**
 * Type tests for `eventWebhook<typeof server>`: `onEvent`'s event is a union discriminated by `name`, whose `data` is
 * that event's payload (each definition's phantom `"~types"`). Checked by `deno check`, never run.
 */
import type { Server } from "../../src/server/server.ts";
import type { EventDefinition } from "../../src/types.ts";
import { eventWebhook } from "../../src/events/receiver/event-webhook.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

type Shipped = EventDefinition<"order.shipped", { customerId: string }, { orderId: string }>;
type Low = EventDefinition<"stock.low", { region?: string }, { sku: string; left: number }>;
// deno-lint-ignore ban-types
declare const server: Server<{}, { "order.shipped": Shipped; "stock.low": Low }>;

eventWebhook<typeof server>({
  secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  onEvent: ({ event }) => {
    if (event.name === "order.shipped") {
      type _Shipped = Expect<Equal<typeof event.data, { orderId: string }>>;
    } else {
      type _Low = Expect<Equal<typeof event.data, { sku: string; left: number }>>;
      // @ts-expect-error: stock.low's payload has no orderId
      void event.data.orderId;
    }
    // @ts-expect-error: no event of that name
    if (event.name === "order.shiped") return;
  },
});

// Without a server type: any name, an unknown payload.
eventWebhook({
  secret: "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
  onEvent: ({ event }) => {
    type _Untyped = Expect<Equal<typeof event.data, unknown>>;
    void event.name.length;
  },
});
