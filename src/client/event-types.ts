/**
 * The types of `client.events` (MCP Events: ChatGPT's profile and SEP-3415): event names, subscription arguments
 * and payloads inferred from a server's type (its phantom `"~events"`), what `events/list` and `events/subscribe`
 * answer, and the methods themselves.
 *
 * @module
 */
import type { RequestOptions } from "./client-types.ts";

/**
 * The events of a client's type parameter: a server type's (its phantom `"~events"`: each definition's `"~types"`
 * names `input`, the subscription's arguments, and `payload`, what a delivery carries), or a plain description,
 * `{ events: { [name]: { input: {…}; payload: {…} } } }`, for a server whose code is not at hand. For anything else
 * (a server that registers none included), any name, any object of arguments, an unknown payload.
 *
 * @typeParam S The server type (`typeof server`), or a description of its events.
 */
export type EventsOf<S> = unknown extends S ? { [name: string]: { input: Record<string, unknown>; payload: unknown } }
  : S extends { readonly "~events"?: infer M } ? (
      [keyof NonNullable<M>] extends [never] ? { [name: string]: { input: Record<string, unknown>; payload: unknown } } // none registered (or a server before events)
        : string extends keyof NonNullable<M> ? { [name: string]: { input: Record<string, unknown>; payload: unknown } }
        : {
          [N in keyof NonNullable<M> & string]: NonNullable<M>[N] extends { readonly "~types"?: infer T }
            ? NonNullable<T>
            : NonNullable<M>[N] extends { input: unknown; payload: unknown } ? NonNullable<M>[N]
            : never;
        }
    )
  : S extends { readonly events: infer D extends { [name: string]: { input: unknown; payload: unknown } } }
    ? (string extends keyof D ? { [name: string]: { input: Record<string, unknown>; payload: unknown } } : D)
  : { [name: string]: { input: Record<string, unknown>; payload: unknown } };

/**
 * An event as `events/list` describes it (`client.events.list()`).
 *
 * @example
 * ```ts
 * import type { EventInfo } from "@mcplite/sdk/client";
 * const webhookOnly = (events: EventInfo[]): string[] =>
 *   events.filter((event) => event.delivery.includes("webhook")).map((event) => event.name);
 * ```
 */
export interface EventInfo {
  /** Its name. */
  name: string;
  /** What it means. */
  description?: string;
  /** How it can be delivered (`webhook`, `poll`, `push`). */
  delivery: string[];
  /** The JSON Schema of a subscription's arguments. */
  inputSchema: Record<string, unknown>;
  /** The JSON Schema of the data a delivery carries. */
  payloadSchema: Record<string, unknown>;
}

/**
 * How to subscribe to an event (`client.events.subscribe(name, subscription)`): its arguments, the callback, the
 * secret deliveries are signed with, and the subscription's life. `arguments` may be left out when the event
 * takes none it requires.
 *
 * @typeParam I The event's arguments (its `.input()` schema's input).
 *
 * @example
 * ```ts
 * import type { SubscribeOptions } from "@mcplite/sdk/client";
 * const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
 * const subscription: SubscribeOptions<{ customerId: string }> = {
 *   arguments: { customerId: "c1" },
 *   url: "https://example.com/hook",
 *   secret,
 *   ttlMs: 3_600_000,
 * };
 * ```
 */
export type SubscribeOptions<I> =
  & {
    /**
     * The callback the server POSTs each occurrence to (an `eventWebhook()` handler). The server checks it: https,
     * public addresses only, unless its `events.allowCallbacks` lists the origin (development and tests).
     */
    url: string | URL;
    /**
     * The Standard Webhooks secret deliveries are signed with: `whsec_` and the base64 of 24 to 64 random bytes,
     * made by the caller and given to the receiver first (`eventWebhook({ secret })`), since the server's
     * challenge to a new subscription, signed with it, comes before `subscribe()` answers. Subscribing again with
     * a new one rotates it (the server signs with both for a while).
     */
    secret: string;
    /** How long it lives before it must be renewed, in ms (the server's default 24 h, at most 7 days). */
    ttlMs?: number;
    /** The oldest occurrence to replay on a new subscription, in ms (SEP-3415). */
    maxAgeMs?: number;
    /** Where to resume, as the last delivery's cursor (SEP-3415; `null`: from now). */
    cursor?: string | null;
  }
  // deno-lint-ignore ban-types
  & ({} extends I ? { arguments?: I } : { arguments: I });

/**
 * A subscription the server took (`client.events.subscribe()`'s answer): keep its id to end it, and renew it
 * (subscribe again) before `refreshBefore`.
 *
 * @example
 * ```ts
 * import type { EventSubscription } from "@mcplite/sdk/client";
 * const renewIn = (sub: EventSubscription, now = Date.now()): number | undefined =>
 *   sub.refreshBefore === null ? undefined : Math.max(0, Date.parse(sub.refreshBefore) - now - 60_000);
 * ```
 */
export interface EventSubscription {
  /** Its id (the deliveries' `X-MCP-Subscription-Id`): the same when the same subscription is renewed. */
  id: string;
  /** When to renew it by (subscribe again), ISO 8601; it ends then. */
  refreshBefore: string | null;
  /** Where delivery resumes (SEP-3415). */
  cursor: string | null;
  /** Whether occurrences older than `maxAgeMs` were left out (SEP-3415). */
  truncated: boolean;
}

/**
 * How to poll an event (`client.events.poll(name, poll)`, SEP-3415 "Poll"): its arguments, where to go on from, how
 * far back a first poll reaches, and how many occurrences at most. `arguments` may be left out when the event takes
 * none it requires.
 *
 * @typeParam I The event's arguments (its `.input()` schema's input).
 *
 * @example
 * ```ts
 * import type { PollOptions } from "@mcplite/sdk/client";
 * const first: PollOptions<{ customerId: string }> = { arguments: { customerId: "c1" }, maxAgeMs: 60_000 };
 * ```
 */
export type PollOptions<I> =
  & {
    /** The last answer's `cursor` (or an event's); `null` or left out: from now (and `maxAgeMs` back). */
    cursor?: string | null;
    /** How far back occurrences are taken, in ms (SEP-3415): with a null cursor, a replay of those kept. */
    maxAgeMs?: number;
    /** The most occurrences answered (default and at most 100): the client polls again at once while there are more. */
    maxEvents?: number;
  }
  // deno-lint-ignore ban-types
  & ({} extends I ? { arguments?: I } : { arguments: I });

/**
 * What `client.events.poll()` answers: the occurrences after the cursor, oldest first, and the cursor to poll from
 * next. Polling again with it before `nextPollMs` is up waits until then (the client keeps the server's pace).
 *
 * @typeParam P The event's payload.
 *
 * @example
 * ```ts
 * import type { EventPoll } from "@mcplite/sdk/client";
 * const orderIds = (poll: EventPoll<{ orderId: string }>): string[] => poll.events.map((event) => event.data.orderId);
 * ```
 */
export interface EventPoll<P> {
  /** The occurrences, oldest first, each with its own cursor (to go on from just after it). */
  events: { eventId: string; name: string; timestamp: string; data: P; cursor: string }[];
  /** Where to poll from next. */
  cursor: string;
  /** Whether occurrences the cursor or `maxAgeMs` asked for are gone from the server's log (retention, count). */
  truncated: boolean;
  /** Whether the server holds more than `maxEvents` answered. */
  hasMore: boolean;
  /** How long the server asks the client to wait before it polls again, in ms. */
  nextPollMs: number;
}

/**
 * How to stream an event (`client.events.stream(name, stream)`, SEP-3415 "Push"): its arguments, where to start, how
 * far back a first stream reaches, and a signal that ends it. `arguments` may be left out when the event takes none it
 * requires.
 *
 * @typeParam I The event's arguments (its `.input()` schema's input).
 *
 * @example
 * ```ts
 * import type { StreamOptions } from "@mcplite/sdk/client";
 * const kept = new Map<string, string>(); // where an application keeps the last event's cursor
 * const resumed: StreamOptions<{ customerId: string }> = {
 *   arguments: { customerId: "c1" },
 *   cursor: kept.get("order.shipped:c1") ?? null, // null: from now
 *   signal: AbortSignal.timeout(60_000),
 * };
 * ```
 */
export type StreamOptions<I> =
  & {
    /** The last event's `cursor` (a poll's, a stream's); `null` or left out: from now (and `maxAgeMs` back). */
    cursor?: string | null;
    /** How far back occurrences are taken when there is no cursor yet, in ms (SEP-3415): a replay of those kept. */
    maxAgeMs?: number;
    /** Ends the stream: the iteration then ends (no error), and the request is aborted. */
    signal?: AbortSignal;
    /**
     * How long the stream may stay silent before the client takes it for dead and reconnects, in ms (default
     * 70 000: SEP-3415's heartbeats come at least every 30 s).
     */
    timeoutMs?: number;
  }
  // deno-lint-ignore ban-types
  & ({} extends I ? { arguments?: I } : { arguments: I });

/**
 * What `client.events.stream()` returns: the occurrences, oldest first, as the server pushes them, each with its
 * cursor (keep the last to resume from it); the client reconnects from that cursor when the stream drops.
 *
 * @typeParam P The event's payload.
 *
 * @example
 * ```ts
 * import type { EventStream } from "@mcplite/sdk/client";
 * async function firstOrder(events: EventStream<{ orderId: string }>): Promise<string | undefined> {
 *   for await (const event of events) return event.data.orderId; // leaving the loop ends the stream
 * }
 * ```
 */
export type EventStream<P> = AsyncIterableIterator<EventPoll<P>["events"][number]>;

/**
 * `client.events`: lists a server's events, subscribes to one by webhook, ends a subscription, polls one and streams
 * one. Its module loads with the first call. Over MCP the methods are `events/list`, `/subscribe`, `/unsubscribe`,
 * `/poll`, `/stream`;
 * over MCP-lite the same JSON-RPC methods at `/rpc`. A server serves ChatGPT's profile of a subscription unless the client
 * declares SEP-3415's extension (`createClient(url, { extensions: { "io.modelcontextprotocol/events": {} } })`; over
 * MCP-lite each request declares it in its `_meta`); the two differ in the `webhook-id` a delivery carries, and
 * `eventWebhook()` takes both.
 *
 * @typeParam E The server's events.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createClient } from "./mod.ts";
 *
 * // A stand-in for a server with events (JSON-RPC at MCP-lite's /rpc); a real one verifies the callback first.
 * const shipped = { name: "order.shipped", delivery: ["webhook"], inputSchema: {}, payloadSchema: {} };
 * const server = {
 *   fetch: async (request: Request) => {
 *     const { id, method } = await request.json();
 *     const result = method === "events/list"
 *       ? { events: [shipped] }
 *       : { id: "sub_1", refreshBefore: null, cursor: null, truncated: false };
 *     return Response.json({ jsonrpc: "2.0", id, result });
 *   },
 * };
 * const client = createClient(server, { transport: "mcp-lite" });
 * assert.deepEqual((await client.events.list()).map((e) => e.name), ["order.shipped"]);
 * // The receiver at `url` knows the secret first (eventWebhook({ secret })): the server's challenge is signed with it.
 * const secret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))}`;
 * const url = "https://example.com/hook";
 * const sub = await client.events.subscribe("order.shipped", { arguments: { customerId: "c1" }, url, secret });
 * assert.equal(sub.id, "sub_1");
 * ```
 */
export interface EventsApi<E> {
  /**
   * Lists the server's events, every page (`events/list`).
   *
   * @param options A signal and timeouts.
   * @returns The events.
   */
  list(options?: RequestOptions): Promise<EventInfo[]>;
  /**
   * Subscribes to an event by webhook (`events/subscribe`). Subscribing again with the same arguments and callback
   * renews the subscription (same id); the server checks the callback (a challenge signed with the secret) before a
   * new one is live, and before this answers: the receiver must know the secret already.
   *
   * @param name The event.
   * @param subscription Its arguments, the callback URL, the secret, the lifetime.
   * @param options A signal and timeouts.
   * @returns The subscription.
   * @throws {TypeError} When the secret is not a Standard Webhooks secret (nothing is sent).
   */
  subscribe<N extends keyof E & string>(
    name: N,
    subscription: SubscribeOptions<E[N] extends { input: infer I } ? I : never>,
    options?: RequestOptions,
  ): Promise<EventSubscription>;
  /**
   * Ends a subscription (`events/unsubscribe`): by its id, or by the event's name, arguments and callback.
   *
   * @param target The subscription's id (`{ id }`), or the event's name.
   * @param subscription With a name: the arguments and callback it was taken with.
   * @param options A signal and timeouts.
   */
  unsubscribe<N extends keyof E & string>(
    target: N,
    subscription: {
      /** The callback it was taken with. */
      url: string | URL;
      /** The arguments it was taken with. */
      arguments?: E[N] extends { input: infer I } ? I : never;
    },
    options?: RequestOptions,
  ): Promise<void>;
  /**
   * Ends a subscription by its id (`events/unsubscribe`).
   *
   * @param target The subscription's id.
   * @param options A signal and timeouts.
   */
  unsubscribe(target: { id: string }, options?: RequestOptions): Promise<void>;
  /**
   * Polls an event (`events/poll`, SEP-3415 "Poll": the server keeps nothing of the poller): the occurrences after
   * `cursor` its arguments match, polling again at once while the server has more (`hasMore`), up to `maxEvents`.
   * Polling from a cursor this client was answered before its `nextPollMs` is up waits until then.
   *
   * @param name The event.
   * @param poll Its arguments, the cursor, how far back, how many.
   * @param options A signal (it also ends the wait) and timeouts.
   * @returns The occurrences and the next cursor.
   */
  poll<N extends keyof E & string>(
    name: N,
    poll?: PollOptions<E[N] extends { input: infer I } ? I : never>,
    options?: RequestOptions,
  ): Promise<EventPoll<E[N] extends { payload: infer P } ? P : never>>;
  /**
   * Streams an event (`events/stream`, SEP-3415 "Push": one long-lived request, its notifications read as they come):
   * the occurrences after `cursor` its arguments match, as an async iterator. When the stream drops (the network, the
   * server's end, a silence past `timeoutMs`, a refusal for lack of room), the client reconnects from the last cursor
   * it received, after a backoff (at once after a healthy stream, then 1 s doubling to 30 s): nothing is missed that
   * the server's log kept, nothing is seen twice. It ends when `signal` aborts or the loop is left; a refusal that
   * will not change (an unknown event, bad arguments or cursor, push not served) is thrown from the iteration.
   *
   * @param name The event.
   * @param stream Its arguments, the cursor, how far back, a signal, the silence allowed.
   * @returns The occurrences, as they come.
   */
  stream<N extends keyof E & string>(
    name: N,
    stream?: StreamOptions<E[N] extends { input: infer I } ? I : never>,
  ): EventStream<E[N] extends { payload: infer P } ? P : never>;
}
