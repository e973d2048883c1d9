/**
 * The types of `client.events` (MCP Events: ChatGPT's profile and SEP-3415): event names, subscription arguments
 * and payloads inferred from a server's type (its phantom `"~events"`), what `events/list` and `events/subscribe`
 * answer, and the methods themselves.
 *
 * @module
 */
import type { RequestOptions } from "./client-types.ts";

/** What one event of a map says of its types: a definition's phantom `"~types"`, or a plain description. */
type EventTypesOf<D> = D extends { readonly "~types"?: infer T } ? NonNullable<T>
  : D extends { input: unknown; payload: unknown } ? D
  : never;

/**
 * The events of a client's type parameter: a server type's (its phantom `"~events"`: each definition's `"~types"`
 * names `input`, the subscription's arguments, and `payload`, what a delivery carries), or a plain description,
 * `{ events: { [name]: { input: {…}; payload: {…} } } }`, for a server whose code is not at hand. For anything else
 * (a server that registers none included), any name, any object of arguments, an unknown payload.
 *
 * @typeParam S The server type (`typeof server`), or a description of its events.
 */
export type EventsOf<S> = unknown extends S ? UntypedEvents
  : S extends { readonly "~events"?: infer M } ? (
      [keyof NonNullable<M>] extends [never] ? UntypedEvents // none registered (or a server before events)
        : string extends keyof NonNullable<M> ? UntypedEvents
        : { [N in keyof NonNullable<M> & string]: EventTypesOf<NonNullable<M>[N]> }
    )
  : S extends { readonly events: infer D extends { [name: string]: { input: unknown; payload: unknown } } }
    ? (string extends keyof D ? UntypedEvents : D)
  : UntypedEvents;

/** The events of a client without a server type: any name, any object of arguments, an unknown payload. */
export type UntypedEvents = { [name: string]: { input: Record<string, unknown>; payload: unknown } };

/** What a subscriber sends as event `N`'s arguments. */
export type EventInput<E, N extends keyof E> = E[N] extends { input: infer I } ? I : never;

/** What a delivery of event `N` carries as its `data`. */
export type EventPayload<E, N extends keyof E> = E[N] extends { payload: infer P } ? P : never;

/** An event as `events/list` describes it. */
export interface EventInfo {
  /** Its name. */
  name: string;
  /** What it means. */
  description?: string;
  /** How it can be delivered (`webhook`). */
  delivery: string[];
  /** The JSON Schema of a subscription's arguments. */
  inputSchema: Record<string, unknown>;
  /** The JSON Schema of the data a delivery carries. */
  payloadSchema: Record<string, unknown>;
}

/**
 * How to subscribe: the event's arguments, the callback, and the subscription's life.
 *
 * @typeParam I The event's arguments.
 */
export type SubscribeOptions<I> =
  & {
    /**
     * The callback the server POSTs each occurrence to (an `eventWebhook()` handler). The server checks it: https,
     * public addresses only, unless its `events.allowCallbacks` lists the origin (development and tests).
     */
    url: string | URL;
    /**
     * The Standard Webhooks secret deliveries are signed with (`whsec_` and base64 of 24 to 64 bytes); generated
     * (32 random bytes) when omitted, and returned either way: keep it for the receiver. The server's challenge to a
     * new subscription comes before the answer, signed with it: a receiver that must already know it is given one
     * made beforehand. Subscribing again with a new one rotates it (the server signs with both for a while).
     */
    secret?: string;
    /** How long the subscription lives before it must be renewed, in ms (the server's default 24 h, at most 7 days). */
    ttlMs?: number;
    /** The oldest occurrence to replay on a new subscription, in ms (SEP-3415). */
    maxAgeMs?: number;
    /** Where to resume, as the last delivery's cursor (SEP-3415; `null`: from now). */
    cursor?: string | null;
  }
  // deno-lint-ignore ban-types
  & ({} extends I ? { arguments?: I } : { arguments: I });

/** A subscription the server took (`events/subscribe`), with the secret its deliveries are signed with. */
export interface EventSubscription {
  /** Its id (the deliveries' `X-MCP-Subscription-Id`): the same when the same subscription is renewed. */
  id: string;
  /** When to renew it by (subscribe again), ISO 8601; it ends then. */
  refreshBefore: string | null;
  /** Where delivery resumes (SEP-3415). */
  cursor: string | null;
  /** Whether occurrences older than `maxAgeMs` were left out (SEP-3415). */
  truncated: boolean;
  /** The signing secret: the one given, or the one generated. */
  secret: string;
}

/** Which subscription to end: the event's name with its arguments and callback, or the subscription's id. */
export type UnsubscribeTarget = { id: string };

/**
 * `client.events`: lists a server's events, subscribes to one by webhook, and ends a subscription. Its module loads
 * with the first call. Over MCP the methods are `events/list`, `events/subscribe` and `events/unsubscribe`; over
 * MCP-lite the same JSON-RPC methods at `/rpc`. A server serves ChatGPT's profile of a subscription unless the client
 * declares SEP-3415's extension (`createClient(url, { extensions: { "io.modelcontextprotocol/events": {} } })`); the
 * two differ in the `webhook-id` a delivery carries, and `eventWebhook()` takes both.
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
 * const url = "https://example.com/hook";
 * const sub = await client.events.subscribe("order.shipped", { arguments: { customerId: "c1" }, url });
 * assert.match(sub.secret, /^whsec_/); // generated: give it to the receiver, eventWebhook({ secret })
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
   * renews the subscription (same id); the server checks the callback (a signed challenge) before a new one is live.
   *
   * @param name The event.
   * @param subscription Its arguments, the callback URL, the secret, the lifetime.
   * @param options A signal and timeouts.
   * @returns The subscription, with its secret.
   */
  subscribe<N extends keyof E & string>(
    name: N,
    subscription: SubscribeOptions<EventInput<E, N>>,
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
    subscription: Pick<SubscribeOptions<EventInput<E, N>>, "url" | "arguments">,
    options?: RequestOptions,
  ): Promise<void>;
  /**
   * Ends a subscription by its id (`events/unsubscribe`).
   *
   * @param target The subscription's id.
   * @param options A signal and timeouts.
   */
  unsubscribe(target: UnsubscribeTarget, options?: RequestOptions): Promise<void>;
}
