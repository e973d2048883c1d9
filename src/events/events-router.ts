/**
 * The events a server serves, from wherever they come: its own, each grouped member's under the group's namespace,
 * a proxied remote's. One router per server's definitions serves `events/*` (SEP-3415 "Events Extension") for all of
 * them and routes a subscription by name to the source that serves the event; that source keeps it (a member in its
 * own store, under its own name; a remote at the remote), so the member's `emit()` reaches subscribers of the group.
 *
 * @module
 */
import type { Extension, ExtensionContext } from "../core/definitions/extension.ts";
import type { Definitions } from "../core/definitions/registry.ts";
import { defineExtension } from "../assembly/served-extensions.ts";
import { ProtocolError } from "../errors/error.ts";
import { attachTaskEnds } from "./task-ends.ts";
import { CallbackRefusedError, refusedForItsForm } from "./delivery/callback-check.ts";

/** The extension's identifier (SEP-3415). */
export const EVENTS_EXTENSION = "io.modelcontextprotocol/events";
/**
 * The param a forwarded `events/subscribe` names the event by as its subscriber knows it: a proxy of ours passes
 * its caller's name on, so that the remote delivers under it (a subscriber checks a delivery's `name`). A param,
 * not `_meta`, which extension handlers do not see: reading `_meta` would take message middleware, which sends
 * every MCP message the slow way.
 */
export const SERVED_AS = "io.mcplite/eventName";
/** ChatGPT's "not found" (SEP-3415's is 12 below: see {@link profiled}). */
const NOT_FOUND = -32011;
/** ChatGPT's "unsupported" (SEP-3415's -32026). */
const UNSUPPORTED = -32014;
/** JSON-RPC's invalid params. */
const INVALID_PARAMS = -32602;
/** What marks an error a proxied remote answered: its code is the remote's, never renumbered here. */
export const REMOTE_ERROR: unique symbol = Symbol("mcplite.events.remote");
/** Any params object: each method reads its own. */
const PARAMS = { type: "object" };
/** Where a server's definitions keep their router: a value on them, not a table beside them. */
const ROUTER = Symbol("mcplite.events");

type Params = Record<string, unknown>;

/** A source of events: a server's own, a grouped member's router, a proxied remote. */
export interface EventsSource {
  /** The events as `events/list` lists them, by the source's own names; read once per change. */
  entries(): readonly Params[];
  /** Whether the source serves an event of that (own) name. */
  has(name: string): boolean;
  /** `events/subscribe` of one of its events, by its own name; `servedAs`: the name the subscriber used. */
  subscribe(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params>;
  /** `events/unsubscribe`, by its own name (or by `id`: -32011 when it holds none such). */
  unsubscribe(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params>;
  /** `events/poll` of one of its events, by its own name; `servedAs`: the name the poller used. */
  poll(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params>;
  /**
   * `events/stream` of one of its events, by its own name, held open until the caller aborts it (SEP-3415 "Push");
   * absent on a source that cannot push (a proxied remote): Unsupported.
   */
  stream?(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params>;
  /** Raises one of its events (its own: a remote's are raised at the remote). */
  emit?(name: string, payload: unknown, options?: { readonly id?: string }): Promise<Params>;
}

/** A source mounted under a namespace: its names served as `lead` + name (`shop.` + `order.shipped`). */
type Mount = { readonly lead: string; readonly source: EventsSource };

/** A registry that can carry its router, and the hook `server.group()` runs as it mounts it into another. */
type Carrier = Definitions & {
  [ROUTER]?: EventsRouter;
  "~grouped"?: (parent: Definitions, naming: (name: string) => string) => void;
};

/**
 * Design (issue 77, composition): a group serves its members' events as it serves their tools, under the prefix.
 * The group's router holds no subscription: it strips the namespace and hands the request to the member's router,
 * which keeps it where the member keeps its own (its store, its name, its id key), with the name the subscriber
 * used (`servedAs`, in the key and in every delivery's body). So the member's `emit()` finds it, from any
 * instance, and a group of groups composes. A proxy mounts its remote as a source that forwards (`proxy()`).
 */
export class EventsRouter implements EventsSource {
  /** The server's own events, once it serves one. */
  local: EventsSource | undefined;
  /** A proxied remote's events, if the server is a proxy of one that serves events. */
  remote: EventsSource | undefined;
  readonly #registry: Definitions;
  readonly #mounts: Mount[] = [];
  /** The routers this one is mounted into, told when its list changes. */
  readonly #parents = new Set<EventsRouter>();

  /** @param registry The server's definitions. */
  constructor(registry: Definitions) {
    this.#registry = registry;
  }

  /** The sources in the order they are served: the first to serve a name serves it. */
  #sources(): Mount[] {
    const own = [this.local, this.remote].filter((s) => s !== undefined).map((source) => ({ lead: "", source }));
    return [...own, ...this.#mounts];
  }

  /** The source that serves a name, and the name it knows the event by. */
  #route(name: string): { readonly source: EventsSource; readonly own: string } | undefined {
    for (const { lead, source } of this.#sources()) {
      const own = name.slice(lead.length);
      if (name.startsWith(lead) && source.has(own)) return { source, own };
    }
  }

  #routed(params: Params): { readonly source: EventsSource; readonly own: string } {
    if (typeof params.name !== "string") throw invalid("name must be a string");
    const routed = this.#route(params.name);
    if (routed === undefined) throw new ProtocolError(NOT_FOUND, `Event not found: ${JSON.stringify(params.name)}`);
    return routed;
  }

  entries(): readonly Params[] {
    const seen = new Set<unknown>();
    const listed: Params[] = [];
    for (const { lead, source } of this.#sources()) {
      for (const entry of source.entries()) {
        const name = `${lead}${entry.name}`;
        if (!seen.has(name)) listed.push(lead === "" ? entry : { ...entry, name });
        seen.add(name);
      }
    }
    return listed;
  }

  has(name: string): boolean {
    return this.#route(name) !== undefined;
  }

  subscribe(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params> {
    const { source, own } = this.#routed(params);
    return source.subscribe({ ...params, name: own }, ctx, servedAs ?? params.name as string);
  }

  poll(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params> {
    const { source, own } = this.#routed(params);
    return source.poll({ ...params, name: own }, ctx, servedAs ?? params.name as string);
  }

  stream(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params> {
    const { source, own } = this.#routed(params);
    if (source.stream === undefined) {
      throw new ProtocolError(UNSUPPORTED, `Unsupported: "${params.name}" is not delivered by push here; poll instead`);
    }
    return source.stream({ ...params, name: own }, ctx, servedAs ?? params.name as string);
  }

  async unsubscribe(params: Params, ctx: ExtensionContext, servedAs: string | undefined): Promise<Params> {
    if (typeof params.id !== "string") {
      const { source, own } = this.#routed(params);
      return await source.unsubscribe({ ...params, name: own }, ctx, servedAs ?? params.name as string);
    }
    // By id alone: the id says nothing of its source, so each is asked in turn (-32011 from all: not found).
    for (const { source } of this.#sources()) {
      try {
        return await source.unsubscribe(params, ctx, servedAs);
      } catch (error) {
        const code = (error as { rpcCode?: number }).rpcCode;
        if (code !== NOT_FOUND && code !== NOT_FOUND - 12) throw error;
      }
    }
    throw new ProtocolError(NOT_FOUND, "Subscription not found");
  }

  /**
   * Raises a member's event by the name the group serves it under (its own emit's checks and deliveries).
   *
   * @throws {TypeError} For a name no member serves, or a proxied remote's event.
   */
  async emit(name: string, payload: unknown, options?: { readonly id?: string }): Promise<Params> {
    const routed = this.#route(name);
    if (routed?.source.emit === undefined) {
      throw new TypeError(`server.emit(): no event "${name}" is registered here or on a grouped server`);
    }
    return await routed.source.emit(routed.own, payload, options);
  }

  /**
   * Mounts this router into a group's definitions (`server.group()`): whole, or not at all when a name is taken.
   *
   * @param parent The group's definitions.
   * @param lead What the group puts before a member's names (`shop.`; `""` without a prefix).
   * @throws {TypeError} When an event would be served under a name the group serves already.
   */
  mountInto(parent: Definitions, lead: string): void {
    const held = (parent as Carrier)[ROUTER]; // checked before the group's router is made: whole or nothing
    for (const { name } of held === undefined ? [] : this.entries()) {
      if (held!.has(`${lead}${name}`)) {
        throw new TypeError(`server.group(): event "${name}" would be served as "${lead}${name}", served already`);
      }
    }
    const router = routerOf(parent);
    router.#mounts.push({ lead, source: this });
    this.#parents.add(router);
    router.changed();
  }

  /** Clears the cached `events/list` here and in every group this router is mounted into. */
  changed(): void {
    // The one change no listener forwards to clients (a configuration's) clears the registry's caches.
    this.#registry.announce({ kind: "config" });
    for (const parent of this.#parents) parent.changed();
  }
}

const invalid = (message: string) => new ProtocolError("invalid_params", `Invalid params: ${message}`);

/** A handler's arguments: the params less the name a proxy of ours passed on ({@link SERVED_AS}), and that name. */
function servedAsOf(params: Params, ctx: ExtensionContext): [Params, ExtensionContext, string | undefined] {
  const { [SERVED_AS]: named, ...own } = params;
  return [own, ctx, typeof named === "string" && /^[\x21-\x7e]{1,256}$/.test(named) ? named : undefined];
}

/**
 * An error in the numbering of the caller's profile: ChatGPT's MCP Events numbers its errors -32011 to -32015, and
 * SEP-3415 ("Error codes") gives NotFound -32023, Forbidden -32024, ResourceExhausted -32025, Unsupported -32026 and
 * CallbackEndpointError -32027: those to a client that declared the extension, and to it a callback URL of the wrong
 * form is invalid params. A proxied remote's stay its own.
 */
async function profiled(ctx: ExtensionContext, answer: () => Promise<Params>): Promise<Params> {
  try {
    return await answer();
  } catch (error) {
    const code = (error as ProtocolError).rpcCode ?? 0;
    const sep = ctx.client.extensions?.[EVENTS_EXTENSION] !== undefined;
    // SEP-3415: a callback URL that is not https (of the wrong form) is `InvalidParams`, not Forbidden.
    if (sep && error instanceof CallbackRefusedError && refusedForItsForm(error)) {
      throw new ProtocolError(INVALID_PARAMS, error.message, { data: error.data, cause: error });
    }
    if (!sep || code > NOT_FOUND || code < NOT_FOUND - 4 || (error as { [REMOTE_ERROR]?: true })[REMOTE_ERROR]) {
      throw error;
    }
    const { message, data } = error as ProtocolError;
    throw new ProtocolError(code - 12, message, { ...(data === undefined ? {} : { data }), cause: error });
  }
}

/** The extension that serves a router's events: `events/list`, `/subscribe`, `/unsubscribe`, `/poll` and `/stream`. */
function eventsExtension(router: EventsRouter): Extension {
  return defineExtension(EVENTS_EXTENSION)
    .method("events/list", PARAMS, (_params, ctx) => ctx.page("events", () => router.entries()))
    .method("events/subscribe", PARAMS, (p, ctx) => profiled(ctx, () => router.subscribe(...servedAsOf(p, ctx))))
    .method("events/unsubscribe", PARAMS, (p, ctx) => profiled(ctx, () => router.unsubscribe(...servedAsOf(p, ctx))))
    .method("events/poll", PARAMS, (p, ctx) => profiled(ctx, () => router.poll(...servedAsOf(p, ctx))))
    .method("events/stream", PARAMS, (p, ctx) => profiled(ctx, () => router.stream(...servedAsOf(p, ctx))));
}

/**
 * The router of a server's definitions, made (and its extension served) on first use. It leaves on the definitions
 * the hook `server.group()` runs as it mounts them into a group's, which mounts this router into the group's.
 *
 * @param registry The server's definitions.
 * @returns Its router.
 */
export function routerOf(registry: Definitions): EventsRouter {
  const carrier = registry as Carrier;
  let router = carrier[ROUTER];
  if (router !== undefined) return router;
  router = carrier[ROUTER] = new EventsRouter(registry);
  const made = router;
  carrier["~grouped"] = (parent, naming) => made.mountInto(parent, naming(""));
  registry.addExtension(eventsExtension(router));
  attachTaskEnds(registry, router); // long-running tools' end events (`.longRunning({ endEvent })`)
  return router;
}
