/**
 * The events runtime of one server, attached by its first `server.event()` and kept by the server: the events it
 * serves, where subscriptions live (the server's shared store, `evsub:<id>` records indexed by `evidx:<name>`), the
 * extension that serves `events/*` (SEP-3415), and `emit`, which hands each matching subscription to delivery.
 *
 * @module
 */
import type { EventDefinition, EventsOptions } from "../core/definitions/event.ts";
import { type Definitions, registryOf } from "../core/definitions/registry.ts";
import { base64urlEncode } from "../codec/base64url.ts";
import { createMemoryStore } from "../store/memory-store.ts";
import { sharedStoreOf } from "../store/store-of.ts";
import type { ServerOptions } from "../server/server-options.ts";
import { attachListener } from "../server/listener.ts";
import {
  attachDeliveries,
  DEFAULT_RETRY_DELAYS_MS,
  deliver,
  Deliveries,
  deliveryBody,
  eventIndex,
} from "./delivery/mod.ts";
import { localEvents } from "./events-methods.ts";
import { routerOf } from "./events-router.ts";
import type { Place } from "./delivery/watermark.ts";
import { OccurrenceLog } from "./occurrence-log.ts";
import { OpenStreams } from "./open-streams.ts";
import { type Emitted, type EventsRuntime, readLiveSubscription } from "./subscription-store.ts";

const HOUR = 3_600_000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(Number.isSafeInteger(value) && value > 0)) throw new RangeError(`events.${name} must be a positive integer`);
  return value;
}

function atMost(value: number, most: number, name: string): number {
  if (value > most) throw new RangeError(`events.${name} must be at most ${most}`);
  return value;
}

/**
 * An `allowCallbacks` entry, checked (a URL) and kept as written: its `.origin` would drop a default port written
 * out (`http://127.0.0.1:80`), and an entry without a port allows every port of its host.
 */
function allowedOrigin(entry: string): string {
  new URL(entry); // throws a TypeError for what is not a URL
  return entry.trim();
}

/** The defaults of the events options, checked. */
function resolved(options: EventsOptions = {}): Required<EventsOptions> {
  return {
    allowCallbacks: [...(options.allowCallbacks ?? [])].map(allowedOrigin),
    ttlMs: positive(options.ttlMs, 24 * HOUR, "ttlMs"),
    maxTtlMs: positive(options.maxTtlMs, 7 * 24 * HOUR, "maxTtlMs"),
    rotationGraceMs: positive(options.rotationGraceMs, 24 * HOUR, "rotationGraceMs"),
    maxSubscriptions: positive(options.maxSubscriptions, 100, "maxSubscriptions"),
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    suspendAfter: positive(options.suspendAfter, 5, "suspendAfter"),
    retainMs: positive(options.retainMs, 24 * HOUR, "retainMs"),
    maxOccurrences: positive(options.maxOccurrences, 256, "maxOccurrences"),
    pollIntervalMs: positive(options.pollIntervalMs, 5_000, "pollIntervalMs"),
    maxStreams: positive(options.maxStreams, 256, "maxStreams"),
    maxStreamsPerCaller: positive(options.maxStreamsPerCaller, 64, "maxStreamsPerCaller"),
    heartbeatMs: atMost(positive(options.heartbeatMs, 25_000, "heartbeatMs"), 30_000, "heartbeatMs"),
    streamPollMs: positive(options.streamPollMs, 1_000, "streamPollMs"),
  };
}

/** The HMAC key of subscription ids: the server's first secret; without one, a fixed label (ids are then hashes). */
function idKeyOf(secret: ServerOptions["secret"]): Promise<CryptoKey> {
  const first = Array.isArray(secret) ? secret[0] : secret as string | Uint8Array | undefined;
  const bytes = typeof first === "string" || first === undefined
    ? new TextEncoder().encode(first ?? "mcplite events")
    : first;
  return crypto.subtle.importKey("raw", new Uint8Array(bytes), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/**
 * Raises an occurrence on a runtime (`server.emit()`): hands it to each live, matching subscription's delivery.
 * Throws (an `Error` naming the event id, its `cause` the queue's) when a queued delivery could not be queued.
 */
async function emitOn(
  runtime: EventsRuntime,
  name: string,
  payload: unknown,
  options: { readonly id?: string } = {},
): Promise<Emitted> {
  const definition = runtime.definitions.get(name);
  // A grouped member's event, by the name the group serves it under: raised by the member.
  if (definition === undefined) return await runtime.router.emit(name, payload, options) as Emitted;
  const checked = await definition["~payload"].validate(payload);
  if (!checked.ok) {
    const issues = checked.issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ");
    throw new TypeError(`server.emit("${name}"): the payload does not match the event's schema: ${issues}`);
  }
  if (options.id !== undefined && !(typeof options.id === "string" && /^[\x21-\x7e]{1,256}$/.test(options.id))) {
    throw new TypeError(`server.emit("${name}"): an id is 1 to 256 printable ASCII characters`);
  }
  const now = runtime.deliveries.now();
  const eventId = options.id ?? `evt_${base64urlEncode(crypto.getRandomValues(new Uint8Array(16)))}`;
  const occurrence = { eventId, name, timestamp: new Date(now).toISOString(), data: checked.value };
  try {
    deliveryBody(occurrence); // over 256 KiB: no receiver takes it (delivery's own check, once here for the emit)
  } catch (error) {
    throw new RangeError(`server.emit("${name}"): ${(error as Error).message}`);
  }
  const { store } = runtime;
  let after: string;
  try {
    after = await runtime.log.append(name, occurrence); // before any delivery: a poll after the emit answered finds it
  } catch (error) {
    throw new Error(
      `server.emit("${name}"): ${eventId} could not be kept in the occurrence log, and was delivered to none; ` +
        `emit again with { id: "${eventId}" }`,
      { cause: error },
    );
  }
  runtime.streams.wake(name); // this instance's push streams read it now (another's at their next poll)
  const index = eventIndex(store);
  const ids = await index.members(name);
  const subs = await Promise.all(ids.map((id) => readLiveSubscription(store, id, now)));
  const handed: Promise<void>[] = [];
  let place: Promise<Place> | undefined;
  for (const [i, sub] of subs.entries()) {
    if (sub === undefined) {
      await index.removeMember(name, ids[i]); // the record expired or was ended: the index forgets it
      continue;
    }
    if (sub.status !== "active") continue; // pending (not verified yet) or suspended until re-subscribed
    const caller = { principal: sub.principal, subscriptionId: sub.id, profile: sub.profile };
    if (!(await definition["~match"](sub.arguments as never, checked.value as never, caller))) continue;
    // Its place in the log, for the watermark of SEP-3415's deliveries (read once, where one needs it).
    const placed = sub.profile === "sep"
      ? { ...occurrence, place: await (place ??= runtime.log.placeOf(name, after)) }
      : occurrence;
    handed.push(deliver(sub, placed, runtime.deliveries));
  }
  // With a queue, a delivery is handed over once its job is queued: one the queue refused (its backend out of reach
  // or out of memory) is not lost unheard but fails the emit, which the caller retries with the same id (a queued
  // job is one per subscription and event id: those already queued are not delivered twice).
  const refused = (await Promise.allSettled(handed)).flatMap((each) => each.status === "rejected" ? [each] : []);
  if (refused.length > 0) {
    throw new Error(
      `server.emit("${name}"): ${refused.length} of ${handed.length} deliveries of ${eventId} could not be queued; ` +
        `emit again with { id: "${eventId}" } (those queued are not delivered twice)`,
      { cause: refused[0].reason },
    );
  }
  return { eventId, deliveries: handed.length };
}

/** Attaches the events runtime to a server: its store, options, and the `events/*` extension served on it. */
function attach(server: object, options: ServerOptions): EventsRuntime {
  const { core, gate } = attachListener(server);
  const given = options.resultStore;
  if (given !== undefined && given.store === undefined && typeof given.members !== "function") {
    throw new TypeError(
      "server.event(): the server's resultStore keeps no sets (addMember, removeMember, members), where events " +
        "index their subscriptions",
    );
  }
  const store = given === undefined ? createMemoryStore() : sharedStoreOf(given);
  const registry = registryOf(core) as Definitions;
  const { runtime: serverRuntime } = registry;
  const onError = serverRuntime.onError ?? (() => {});
  const events = resolved(options.events);
  const deliveries = new Deliveries({
    store,
    codec: serverRuntime.tokens.codec,
    // A queue kept in the store (`queue: "store"`) carries tools' jobs only: deliveries stay with the instance emitting.
    queue: options.queue === "store" ? undefined : options.queue,
    allowCallbacks: events.allowCallbacks,
    retryDelaysMs: events.retryDelaysMs,
    suspendAfter: events.suspendAfter,
    middleware: () => serverRuntime.middleware,
    onError: (error) => void onError(error),
  });
  attachDeliveries(server, deliveries); // runWorker(server) runs the queued deliveries with it
  const idKey = idKeyOf(options.secret);
  const log = new OccurrenceLog(store, idKey, {
    retainMs: events.retainMs,
    max: events.maxOccurrences,
    now: () => deliveries.now(),
  });
  const runtime: EventsRuntime = {
    definitions: new Map(),
    log,
    store,
    options: events,
    streams: new OpenStreams({
      max: events.maxStreams,
      perCaller: events.maxStreamsPerCaller,
      pollMs: events.streamPollMs,
      head: (name) => log.head(name),
    }),
    deliveries,
    authenticates: gate.auth !== undefined,
    idKey,
    router: routerOf(registry), // made here, or by a grouping or a proxy before: one per server
    emit: (name, payload, emitOptions) => emitOn(runtime, name, payload, emitOptions),
  };
  runtime.router.local = localEvents(runtime);
  return runtime;
}

/**
 * Serves an event on a server (an event definition's `~serve`): attaches the runtime on the first, then registers
 * the event with it.
 *
 * @param definition The event.
 * @param server The server.
 * @param options The server's options.
 * @param attached The runtime attached already, if any.
 * @returns The server's runtime.
 * @throws {TypeError} When an event of that name is served already, or the store keeps no sets.
 */
export function serveEvent(
  definition: EventDefinition<string, never, never>,
  server: object,
  options: object,
  attached: unknown,
): EventsRuntime {
  const runtime = (attached as EventsRuntime | undefined) ?? attach(server, options as ServerOptions);
  if (runtime.router.has(definition.name)) {
    throw new TypeError(`server.event(): an event "${definition.name}" is served already`);
  }
  runtime.definitions.set(definition.name, definition);
  // `events/list` is cached as MCP's lists are, until the registry changes (and those of the groups it is in).
  runtime.router.changed();
  return runtime;
}
