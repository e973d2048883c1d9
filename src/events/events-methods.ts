/**
 * The methods of MCP Events (SEP-3415 "Events Extension", `io.modelcontextprotocol/events`; ChatGPT's MCP Events) on
 * a server's own events: `events/list`, `events/subscribe` (an idempotent upsert keyed by principal, callback, event
 * as the subscriber names it, and arguments; a new callback answers a challenge first; a new secret is a rotation),
 * `events/unsubscribe`, `events/poll` (the occurrence log read from a cursor) and `events/stream` (the same log,
 * pushed): the source of its own events its router serves (./events-router.ts).
 *
 * @module
 */
import type { ExtensionContext } from "../core/definitions/extension.ts";
import { ProtocolError } from "../errors/error.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { isObject } from "../internal/is-object.ts";
import type { EventDefinition } from "../core/definitions/event.ts";
import {
  checkCallback,
  clearFailures,
  deliver,
  endSubscription,
  type Subscription,
  verifyCallback,
} from "./delivery/mod.ts";
import { EVENTS_EXTENSION, type EventsSource } from "./events-router.ts";
import { pushStream } from "./push-stream.ts";
import type { SharedStore } from "../store/shared-store.ts";
import { type EventsRuntime, principalIndex, readLiveSubscription, storeSubscription } from "./subscription-store.ts";
import { watermark } from "./delivery/watermark.ts";
import { webhookSecretFits } from "../internal/webhook-secret.ts";

/** ChatGPT's error codes (the router renumbers them SEP-3415's for a client that declared the extension). */
const NOT_FOUND = -32011, FORBIDDEN = -32012, EXHAUSTED = -32013, UNSUPPORTED = -32014;
/** The most occurrences one `events/poll` answers (its `maxEvents`, default and cap). */
const MAX_EVENTS = 100;
type Params = Record<string, unknown>;

const invalid = (message: string, data?: unknown) =>
  new ProtocolError("invalid_params", `Invalid params: ${message}`, data === undefined ? undefined : { data });

/** JSON with every object's keys sorted: the arguments' part of a subscription's key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * Who holds a subscription: the caller's subject and OAuth client; `anonymous` only on a server that authenticates
 * nobody (SEP-3415, Security: subscriptions are scoped to the authenticated principal).
 */
function principalOf(runtime: EventsRuntime, ctx: ExtensionContext): string {
  const subject = ctx.auth?.subject;
  if (typeof subject === "string" && subject !== "") return JSON.stringify([subject, ctx.auth?.clientId ?? null]);
  if (!runtime.authenticates) return "anonymous";
  throw new ProtocolError(FORBIDDEN, "Forbidden: subscribing to events needs an authenticated caller");
}

/** The profile a caller's request follows: SEP-3415's when it declared the extension, else ChatGPT's. */
function profileOf(ctx: ExtensionContext): "sep" | "chatgpt" {
  return ctx.client.extensions?.[EVENTS_EXTENSION] === undefined ? "chatgpt" : "sep";
}

/**
 * Who holds a webhook subscription. SEP-3415 "Subscription identity": `events/subscribe` and `events/unsubscribe`
 * "MUST be called with an authenticated principal", and "Unauthenticated MCP servers may offer poll and push, but not
 * webhook": `anonymous` is refused Forbidden to a client of its profile (ChatGPT's keeps a server without auth open).
 */
function webhookPrincipal(runtime: EventsRuntime, ctx: ExtensionContext): string {
  const principal = principalOf(runtime, ctx);
  if (principal === "anonymous" && profileOf(ctx) === "sep") {
    throw new ProtocolError(FORBIDDEN, "Forbidden: webhook subscriptions need an authenticated caller (SEP-3415)");
  }
  return principal;
}

/** The event a request names, or -32011. */
function eventNamed(runtime: EventsRuntime, params: Params) {
  if (typeof params.name !== "string") throw invalid("name must be a string");
  const definition = runtime.definitions.get(params.name);
  if (definition === undefined) throw new ProtocolError(NOT_FOUND, `Event not found: ${JSON.stringify(params.name)}`);
  return definition;
}

/** The request's arguments, checked against the event's input schema (-32602 with the issues). */
async function argumentsOf(runtime: EventsRuntime, params: Params): Promise<Record<string, unknown>> {
  const definition = eventNamed(runtime, params);
  const checked = await definition["~input"].validate(params.arguments ?? {});
  if (!checked.ok) throw invalid(`arguments do not match the event's input schema`, { issues: checked.issues });
  return checked.value as Record<string, unknown>;
}

/** Refuses a mode the event is not served in (-32014): `delivery` narrowed it. */
function servedIn(definition: EventDefinition<string, never, never>, mode: "webhook" | "poll" | "push") {
  if (!definition["~delivery"].includes(mode)) {
    throw new ProtocolError(UNSUPPORTED, `Unsupported: "${definition.name}" is not delivered by ${mode}`);
  }
}

/**
 * A poll's or a replay's `cursor` and `maxAgeMs`, checked (-32602). `cursor: null` is now, and `maxAgeMs` beside it is
 * ignored (SEP-3415: "`maxAgeMs` is ignored when `cursor` is `null`, because `null` already means 'now'"); a cursor
 * left out is now too, and `maxAgeMs` then reaches back that far (a replay by age).
 */
function fromOf(params: Params): { cursor: string | null; maxAgeMs: number | undefined } {
  const { cursor = null, maxAgeMs = undefined } = params;
  if (cursor !== null && typeof cursor !== "string") throw invalid("cursor must be a string or null");
  if (maxAgeMs !== undefined && maxAgeMs !== null && !(Number.isSafeInteger(maxAgeMs) && (maxAgeMs as number) >= 0)) {
    throw invalid("maxAgeMs must be a non-negative integer");
  }
  const now = "cursor" in params && params.cursor === null;
  return { cursor, maxAgeMs: now ? undefined : (maxAgeMs ?? undefined) as number | undefined };
}

/**
 * The request's webhook delivery: `{ mode: "webhook", url, secret? }`; another mode is -32014. `events/unsubscribe`
 * names the subscription by its URL alone (SEP-3415: `delivery: { url }`), its mode left out.
 */
function deliveryOf(params: Params, modeLeftOut = false): { url: string; secret: unknown } {
  const delivery = params.delivery;
  if (!isObject(delivery)) throw invalid("delivery must be an object");
  if (delivery.mode !== "webhook" && !(modeLeftOut && delivery.mode === undefined)) {
    throw new ProtocolError(UNSUPPORTED, `Unsupported delivery mode: ${JSON.stringify(delivery.mode)} (webhook only)`);
  }
  if (typeof delivery.url !== "string") throw invalid("delivery.url must be a string");
  return { url: delivery.url, secret: delivery.secret };
}

/** The key of a subscription (principal, callback, event, arguments) and its id: `sub_` and its HMAC. */
async function identify(runtime: EventsRuntime, principal: string, url: string, name: string, args: unknown) {
  const key = JSON.stringify([principal, url, name, canonical(args)]);
  const mac = await crypto.subtle.sign("HMAC", await runtime.idKey, new TextEncoder().encode(key));
  return { key, id: `sub_${base64urlEncode(new Uint8Array(mac))}` };
}

/** Refuses one more subscription past the principal's budget (-32013), forgetting ended ones as it counts. */
async function budget(runtime: EventsRuntime, store: SharedStore, principal: string, now: number): Promise<void> {
  let held = 0;
  const index = principalIndex(store);
  for (const id of await index.members(principal)) {
    if (await readLiveSubscription(store, id, now)) held++;
    else await index.removeMember(principal, id);
  }
  if (held >= runtime.options.maxSubscriptions) {
    const max = runtime.options.maxSubscriptions;
    // SEP-3415 "Error Handling": "`data.limit` names it (for example `"subscriptions"`), and `data.max` MAY give the
    // ceiling".
    throw new ProtocolError(EXHAUSTED, `Resource exhausted: at most ${max} subscriptions`, {
      data: { limit: "subscriptions", max },
    });
  }
}

/**
 * `events/subscribe`: creates or refreshes a subscription; a new secret rotates the old one out after a grace.
 * `servedAs`: the name the subscriber used, when another (a group's namespace): in the key, and delivered.
 */
async function subscribe(runtime: EventsRuntime, params: Params, ctx: ExtensionContext, servedAs?: string) {
  const args = await argumentsOf(runtime, params);
  const name = params.name as string;
  const { url, secret } = deliveryOf(params);
  servedIn(runtime.definitions.get(name)!, "webhook");
  const from = fromOf(params);
  // SEP-3415: the secret "MUST" be `whsec_` and the base64 of 24 to 64 bytes (Standard Webhooks).
  if (!webhookSecretFits(secret)) {
    throw invalid("delivery.secret must be a whsec_ secret (Standard Webhooks): the base64 of 24 to 64 bytes");
  }
  const asked = params.ttlMs ?? undefined;
  if (asked !== undefined && !(Number.isSafeInteger(asked) && (asked as number) > 0)) {
    throw invalid("ttlMs must be a positive integer");
  }
  const principal = webhookPrincipal(runtime, ctx);
  const { store, deliveries, options } = runtime;
  await checkCallback(url, deliveries.allow, deliveries.lookup); // -32012 when refused
  const { key, id } = await identify(runtime, principal, url, servedAs ?? name, args);
  const now = deliveries.now();
  const kept = await readLiveSubscription(store, id, now);
  if (kept === undefined) await budget(runtime, store, principal, now);
  const rotated = kept !== undefined && kept.secrets[0] !== secret;
  const sub: Subscription = {
    id,
    key,
    principal,
    name,
    ...(servedAs === undefined ? {} : { servedAs }),
    arguments: args,
    url,
    secrets: rotated ? [secret, kept.secrets[0]] : [secret, ...(kept?.secrets.slice(1) ?? [])],
    ...(rotated
      ? { previousUntil: now + options.rotationGraceMs }
      : kept?.previousUntil === undefined
      ? {}
      : { previousUntil: kept.previousUntil }),
    profile: profileOf(ctx),
    status: "active",
    failures: kept?.status === "suspended" ? 0 : kept?.failures ?? 0,
    expiresAt: now + Math.min((asked as number | undefined) ?? options.ttlMs, options.maxTtlMs),
    life: kept?.life ?? base64urlEncode(crypto.getRandomValues(new Uint8Array(12))),
  };
  // A new callback proves it asked for the events before any is sent (ChatGPT's MCP Events: the challenge), and so
  // does a suspended one before it is active again (its deliveries failed, or its host resolved to a refused
  // address). -32015 when the challenge fails: a suspended subscription stays suspended.
  if (kept === undefined || kept.status !== "active") await verifyCallback({ ...sub, status: "pending" }, deliveries);
  if (kept?.status === "suspended") await clearFailures(store, sub.id); // failures: 0 above, the set too
  await storeSubscription(store, sub, now);
  // SEP-3415: a subscription taken with a cursor or `maxAgeMs` is sent what it missed (those kept), then the new.
  // "Subscription identity", `cursor`: on a live subscription, "if the cursor is at or behind the current in-flight
  // position, this is a no-op": what was delivered is not sent again. What is still pending (a delivery a restarted
  // process may have dropped) is sent again from just before the earliest of it; nothing pending, nothing is.
  const resumes = from.cursor !== null || from.maxAgeMs !== undefined;
  const live = kept?.status === "active" && sub.profile === "sep";
  const inFlight = resumes && live ? await watermark(store, id, now) : undefined;
  const start = !resumes || !live ? from : { cursor: inFlight ?? null, maxAgeMs: undefined };
  const replay = !resumes || (live && inFlight === undefined) ? 0 : options.maxOccurrences;
  const caller = { principal, subscriptionId: id, profile: sub.profile };
  const definition = runtime.definitions.get(name)!;
  const missed = await runtime.log.read(name, {
    ...start,
    limit: replay,
    match: (occurrence) => definition["~match"](args as never, occurrence.data as never, caller),
  });
  for (const { cursor: after, ...occurrence } of missed.events) {
    await deliver(sub, { ...occurrence, place: await runtime.log.placeOf(name, after) }, deliveries);
  }
  const { truncated } = missed;
  // SEP-3415: the response's cursor is "the same safe-to-persist watermark" as the deliveries', never past an
  // occurrence still being delivered (on its profile; ChatGPT's, the log's position).
  const cursor = (sub.profile === "sep" ? await watermark(store, id, deliveries.now()) : undefined) ?? missed.cursor;
  return { id, refreshBefore: new Date(sub.expiresAt).toISOString(), cursor, truncated };
}

/**
 * `events/poll`: the caller's occurrences after its cursor (SEP-3415 "Poll"), from the occurrence log; the server
 * keeps nothing of the poller. `nextPollMs` is 0 while more are kept than answered.
 */
async function poll(runtime: EventsRuntime, params: Params, ctx: ExtensionContext, servedAs?: string) {
  const args = await argumentsOf(runtime, params);
  const definition = runtime.definitions.get(params.name as string)!;
  servedIn(definition, "poll");
  const from = fromOf(params);
  const { maxEvents = MAX_EVENTS } = params;
  if (!(Number.isSafeInteger(maxEvents) && (maxEvents as number) > 0)) {
    throw invalid("maxEvents must be a positive integer");
  }
  const principal = principalOf(runtime, ctx);
  const caller = { principal, subscriptionId: "", profile: profileOf(ctx) } as const;
  const read = await runtime.log.read(definition.name, {
    ...from,
    limit: Math.min(maxEvents as number, MAX_EVENTS),
    match: (occurrence) => definition["~match"](args as never, occurrence.data as never, caller),
  });
  const events = servedAs === undefined ? read.events : read.events.map((event) => ({ ...event, name: servedAs }));
  const nextPollMs = read.hasMore ? 0 : runtime.options.pollIntervalMs;
  return { events, cursor: read.cursor, truncated: read.truncated, hasMore: read.hasMore, nextPollMs };
}

/**
 * `events/stream` (SEP-3415 "Push"): the caller's occurrences after its cursor as notifications, until it aborts the
 * request (./push-stream.ts); the server keeps nothing of the streamer but the open request.
 */
async function stream(runtime: EventsRuntime, params: Params, ctx: ExtensionContext, servedAs?: string) {
  const args = await argumentsOf(runtime, params);
  const definition = runtime.definitions.get(params.name as string)!;
  servedIn(definition, "push");
  const from = fromOf(params);
  const principal = principalOf(runtime, ctx);
  const caller = { principal, subscriptionId: "", profile: profileOf(ctx) } as const;
  return await pushStream(runtime, {
    name: definition.name,
    servedAs,
    ...from,
    match: (occurrence) => definition["~match"](args as never, occurrence.data as never, caller),
  }, ctx);
}

/** `events/unsubscribe`: by `id`, or by name, arguments and callback; the caller's own subscriptions only. */
async function unsubscribe(runtime: EventsRuntime, params: Params, ctx: ExtensionContext, servedAs?: string) {
  const principal = webhookPrincipal(runtime, ctx);
  const { store, deliveries } = runtime;
  let id = params.id;
  if (typeof id !== "string") {
    const args = await argumentsOf(runtime, params);
    id = (await identify(runtime, principal, deliveryOf(params, true).url, servedAs ?? params.name as string, args)).id;
  }
  const sub = await readLiveSubscription(store, id as string, deliveries.now());
  if (sub === undefined || sub.principal !== principal) {
    throw new ProtocolError(NOT_FOUND, "Subscription not found");
  }
  await endSubscription(store, sub);
  await principalIndex(store).removeMember(principal, sub.id);
  return {};
}

/**
 * A server's own events, as its router serves them.
 *
 * @param runtime The server's events runtime.
 * @returns The source.
 */
export function localEvents(runtime: EventsRuntime): EventsSource {
  // A subscriber's name is the event's own unless a group (or a proxy of ours) served it under another.
  const other = (params: Params, servedAs: string | undefined) => servedAs === params.name ? undefined : servedAs;
  return {
    entries: () =>
      [...runtime.definitions.values()].map((definition) => ({
        name: definition.name,
        ...(definition.description === undefined ? {} : { description: definition.description }),
        delivery: definition["~delivery"],
        inputSchema: definition["~input"].jsonSchema,
        payloadSchema: definition["~payload"].jsonSchema,
      })),
    has: (name) => runtime.definitions.has(name),
    subscribe: (params, ctx, servedAs) => subscribe(runtime, params, ctx, other(params, servedAs)),
    unsubscribe: (params, ctx, servedAs) => unsubscribe(runtime, params, ctx, other(params, servedAs)),
    poll: (params, ctx, servedAs) => poll(runtime, params, ctx, other(params, servedAs)),
    stream: (params, ctx, servedAs) => stream(runtime, params, ctx, other(params, servedAs)),
    emit: (name, payload, options) => runtime.emit(name, payload, options),
  };
}
