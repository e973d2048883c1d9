/**
 * Type tests for `client.events` (MCP Events): event names and subscription arguments come from the server's type
 * (its phantom `"~events"`), and a wrong name or argument key does not compile. Checked by `deno check`, never run.
 * The server type is spelled out with `EventDefinition`s, as `defineEvent()` makes them.
 */
import type { Server } from "../../src/server/server.ts";
import type { EventDefinition } from "../../src/types.ts";
import { createClient } from "../../src/client/mod.ts";
import type { EventsApi, EventsOf } from "../../src/client/event-types.ts";

type EventSubscription = Awaited<ReturnType<EventsApi<EventsOf<unknown>>["subscribe"]>>;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Expect<T extends true> = T;

type Shipped = EventDefinition<"order.shipped", { customerId: string }, { orderId: string; customerId: string }>;
const secret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

type Any = EventDefinition<"stock.low", { region?: string }, { at: string }>;
// deno-lint-ignore ban-types
declare const server: Server<{}, { "order.shipped": Shipped; "stock.low": Any }>;

async function typed(): Promise<void> {
  const client = createClient<typeof server>("http://127.0.0.1:8000");
  const sub = await client.events.subscribe("order.shipped", {
    arguments: { customerId: "c1" },
    url: "http://127.0.0.1:9000/",
    secret,
  });
  type _Sub = Expect<Equal<typeof sub, EventSubscription>>;
  // @ts-expect-error: the caller has the secret; the answer does not carry it
  void sub.secret;
  await client.events.subscribe("stock.low", { url: "https://example.com/hook", secret }); // its arguments are optional
  await client.events.unsubscribe("order.shipped", { arguments: { customerId: "c1" }, url: "https://example.com/" });
  await client.events.unsubscribe({ id: sub.id });
  const listed = await client.events.list();
  void listed[0].payloadSchema;

  const url = "https://example.com/";
  // @ts-expect-error: no event of that name
  await client.events.subscribe("order.shiped", { arguments: { customerId: "c1" }, url, secret });
  // @ts-expect-error: no such argument
  await client.events.subscribe("order.shipped", { arguments: { customer: "c1" }, url, secret });
  // @ts-expect-error: customerId must be a string
  await client.events.subscribe("order.shipped", { arguments: { customerId: 1 }, url, secret });
  // @ts-expect-error: its arguments are required
  await client.events.subscribe("order.shipped", { url, secret });
  // @ts-expect-error: the secret is required (the receiver must know it before the server's challenge)
  await client.events.subscribe("order.shipped", { arguments: { customerId: "c1" }, url });
  // @ts-expect-error: even where the arguments are optional
  await client.events.subscribe("stock.low", { url });
  // @ts-expect-error: no event of that name to end either
  await client.events.unsubscribe("order.shiped", { arguments: { customerId: "c1" }, url: "https://example.com/" });
}
void typed;

/** A client without a server type takes any name and any object of arguments. */
async function untyped(): Promise<void> {
  const client = createClient("http://127.0.0.1:8000");
  await client.events.subscribe("anything", { arguments: { x: 1 }, url: "https://example.com/", secret });
  // @ts-expect-error: the secret is required there too
  await client.events.subscribe("anything", { arguments: { x: 1 }, url: "https://example.com/" });
}
void untyped;
