/**
 * The methods of MCP Events (SEP-3415 "Events Extension", `io.modelcontextprotocol/events`; ChatGPT's MCP Events):
 * `events/list`, `events/subscribe` (an idempotent upsert keyed by principal, callback, event and arguments; a new
 * callback answers a challenge first; a new secret is a rotation) and `events/unsubscribe`, served as an extension,
 * with ChatGPT's top-level `capabilities.events` added to `server/discover` and `initialize` by its middleware.
 *
 * @module
 */
import type { Extension, ExtensionContext } from "../core/definitions/extension.ts";
import { ProtocolError } from "../errors/error.ts";
import { defineExtension } from "../assembly/served-extensions.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { isObject } from "../internal/is-object.ts";
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";
import { checkCallback, endSubscription, type Subscription, verifyCallback } from "./delivery/mod.ts";
import {
  type EventsRuntime,
  principalIndexKey,
  readLiveSubscription,
  type SetStore,
  storeSubscription,
} from "./subscription-store.ts";

/** The extension's identifier (SEP-3415). */
export const EVENTS_EXTENSION = "io.modelcontextprotocol/events";
/** SEP-3415's error codes. */
const NOT_FOUND = -32011, FORBIDDEN = -32012, EXHAUSTED = -32013, UNSUPPORTED = -32014;
/** Any params object: each method reads its own. */
const PARAMS = { type: "object" };

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

/** The request's webhook delivery: `{ mode: "webhook", url, secret? }`; another mode is -32014. */
function deliveryOf(params: Params): { url: string; secret: unknown } {
  const delivery = params.delivery;
  if (!isObject(delivery)) throw invalid("delivery must be an object");
  if (delivery.mode !== "webhook") {
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
async function budget(runtime: EventsRuntime, store: SetStore, principal: string, now: number): Promise<void> {
  let held = 0;
  const index = principalIndexKey(principal);
  for (const id of await store.members(index)) {
    if (await readLiveSubscription(store, id, now)) held++;
    else await store.removeMember(index, id);
  }
  if (held >= runtime.options.maxSubscriptions) {
    throw new ProtocolError(EXHAUSTED, `Resource exhausted: at most ${runtime.options.maxSubscriptions} subscriptions`);
  }
}

/** `events/subscribe`: creates or refreshes a subscription; a new secret rotates the old one out after a grace. */
async function subscribe(runtime: EventsRuntime, params: Params, ctx: ExtensionContext): Promise<Params> {
  const args = await argumentsOf(runtime, params);
  const name = params.name as string;
  const { url, secret } = deliveryOf(params);
  if (typeof secret !== "string" || !/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(secret)) {
    throw invalid("delivery.secret must be a whsec_ secret (Standard Webhooks) of at least 24 bytes");
  }
  const asked = params.ttlMs ?? undefined;
  if (asked !== undefined && !(Number.isSafeInteger(asked) && (asked as number) > 0)) {
    throw invalid("ttlMs must be a positive integer");
  }
  const principal = principalOf(runtime, ctx);
  const { store, deliveries, options } = runtime;
  await checkCallback(url, deliveries.allow, deliveries.lookup); // -32012 when refused
  const { key, id } = await identify(runtime, principal, url, name, args);
  const now = deliveries.now();
  const kept = await readLiveSubscription(store, id, now);
  if (kept === undefined) await budget(runtime, store, principal, now);
  const rotated = kept !== undefined && kept.secrets[0] !== secret;
  const sub: Subscription = {
    id,
    key,
    principal,
    name,
    arguments: args,
    url,
    secrets: rotated ? [secret, kept.secrets[0]] : [secret, ...(kept?.secrets.slice(1) ?? [])],
    ...(rotated
      ? { previousUntil: now + options.rotationGraceMs }
      : kept?.previousUntil === undefined
      ? {}
      : { previousUntil: kept.previousUntil }),
    profile: ctx.client.extensions?.[EVENTS_EXTENSION] === undefined ? "chatgpt" : "sep",
    status: "active",
    failures: kept?.status === "suspended" ? 0 : kept?.failures ?? 0,
    expiresAt: now + Math.min((asked as number | undefined) ?? options.ttlMs, options.maxTtlMs),
  };
  // A new callback proves it asked for the events before any is sent (ChatGPT's MCP Events: the challenge), and so
  // does a suspended one before it is active again (its deliveries failed, or its host resolved to a refused
  // address). -32015 when the challenge fails: a suspended subscription stays suspended.
  if (kept === undefined || kept.status !== "active") await verifyCallback({ ...sub, status: "pending" }, deliveries);
  await storeSubscription(store, sub, now);
  return { id, refreshBefore: new Date(sub.expiresAt).toISOString(), cursor: null, truncated: false };
}

/** `events/unsubscribe`: by `id`, or by name, arguments and callback; the caller's own subscriptions only. */
async function unsubscribe(runtime: EventsRuntime, params: Params, ctx: ExtensionContext): Promise<Params> {
  const principal = principalOf(runtime, ctx);
  const { store, deliveries } = runtime;
  let id = params.id;
  if (typeof id !== "string") {
    const args = await argumentsOf(runtime, params);
    id = (await identify(runtime, principal, deliveryOf(params).url, params.name as string, args)).id;
  }
  const sub = await readLiveSubscription(store, id as string, deliveries.now());
  if (sub === undefined || sub.principal !== principal) {
    throw new ProtocolError(NOT_FOUND, "Subscription not found");
  }
  await endSubscription(store, sub);
  await store.removeMember(principalIndexKey(principal), sub.id);
  return {};
}

/** `events/list`: every event, paginated as MCP's lists are. */
function list(runtime: EventsRuntime, ctx: ExtensionContext): Params {
  return ctx.page("events", () =>
    [...runtime.definitions.values()].map((definition) => ({
      name: definition.name,
      ...(definition.description === undefined ? {} : { description: definition.description }),
      delivery: ["webhook"],
      inputSchema: definition["~input"].jsonSchema,
      payloadSchema: definition["~payload"].jsonSchema,
    })));
}

/** ChatGPT's profile reads `capabilities.events` at the top level: added to `server/discover` and `initialize`. */
const topLevelCapability: MessageMiddleware = (message, info, next) => {
  const result = message.result;
  if (info.direction !== "out" || (info.method !== "server/discover" && info.method !== "initialize")) return next();
  if (!isObject(result) || !isObject(result.capabilities)) return next();
  return next({ ...message, result: { ...result, capabilities: { ...result.capabilities, events: {} } } });
};

/**
 * The events extension of one server's runtime.
 *
 * @param runtime The runtime.
 * @returns The extension, to serve with `server.extension()`.
 */
export function eventsExtension(runtime: EventsRuntime): Extension {
  return defineExtension(EVENTS_EXTENSION)
    .method("events/list", PARAMS, (_params, ctx) => list(runtime, ctx))
    .method("events/subscribe", PARAMS, (params, ctx) => subscribe(runtime, params, ctx))
    .method("events/unsubscribe", PARAMS, (params, ctx) => unsubscribe(runtime, params, ctx))
    .intercept(topLevelCapability);
}
