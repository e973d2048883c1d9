/**
 * A proxied remote's events (SEP-3415 "Events Extension"; ChatGPT's MCP Events), served by the proxy's events router:
 * listed as the remote lists them (read at start, then every `refreshMs`); `events/subscribe`, `/unsubscribe` and
 * `/poll` forwarded with the caller's own callback URL and secret (the remote delivers straight to the caller, the
 * proxy holds no subscription), `/stream` relayed on the caller's stream. Each goes through the caller's client
 * (./caller-client.ts): the proxy's credentials, or the caller's token where the hop allows it, as a proxied call's.
 *
 * @module
 */
import type { ExtensionContext } from "../core/definitions/extension.ts";
import type { Definitions } from "../core/definitions/registry.ts";
import type { Client } from "../client/client.ts";
import type { RequestOptions } from "../client/client-types.ts";
import { ProtocolError } from "../errors/error.ts";
import { type EventsSource, REMOTE_ERROR, routerOf, SERVED_AS } from "../events/events-router.ts";
import { isObject } from "../internal/is-object.ts";
import { META } from "../internal/mcp-wire.ts";
import { heldForPush } from "../events/push-stream.ts";
import type { HopOptions } from "./hop-options.ts";
import { remoteError } from "./remote-error.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";

type Params = Record<string, unknown>;

/** The most pages of `events/list` read from the remote (a bound on a remote that never ends its list). */
const MAX_PAGES = 100;

/** The remote's events, every page of `events/list`; the events that are not objects with a name left out. */
async function remoteEvents(client: Client): Promise<Params[]> {
  const events: Params[] = [];
  let cursor: unknown;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request("events/list", cursor === undefined ? {} : { cursor });
    const listed = Array.isArray(result.events) ? result.events : [];
    for (const event of listed) {
      if (isObject(event) && typeof event.name === "string") events.push(event);
    }
    cursor = result.nextCursor;
    if (typeof cursor !== "string" || cursor === "") break;
  }
  return events;
}

/**
 * The caller's error for what the remote answered: the events' codes (ChatGPT's -32011…-32016, SEP-3415's
 * -32023…-32027) kept as the remote sent them (a subscriber reads them; the router renumbers none), the rest as a
 * proxied call's.
 */
function callerError(error: unknown, hop: HopOptions): unknown {
  const code = (error as ProtocolError).rpcCode ?? 0;
  if (error instanceof ProtocolError && ((code <= -32011 && code >= -32016) || (code <= -32023 && code >= -32027))) {
    const kept = new ProtocolError(code, error.message, error.data === undefined ? {} : { data: error.data });
    return Object.assign(kept, { [REMOTE_ERROR]: true });
  }
  return remoteError(error, hop.retryAfterMs, hop.name);
}

/** How the remote's events are read again: every `refreshMs` (0: never) until `signal` aborts. */
export interface EventsRefresh {
  readonly refreshMs: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Serves a remote's events on the proxy's server: its router's remote source.
 *
 * @param registry The proxy's definitions.
 * @param client The proxy's own client to the remote (the list is the same for every caller).
 * @param hop How a caller's request goes to the remote.
 * @param warn Hears of a list the remote failed to give (the proxy then serves none of its events).
 * @param refresh How often the list is read again (a remote out of reach keeps the list it had).
 */
export async function serveRemoteEvents(
  registry: Definitions,
  client: Client,
  hop: HopOptions,
  warn: (message: string) => void,
  refresh: EventsRefresh,
): Promise<void> {
  let entries: Params[] = [];
  try {
    entries = await remoteEvents(client);
  } catch (error) {
    warn(`proxy: the remote's events could not be listed (${(error as Error).message}): none is served`);
  }
  let names = new Set(entries.map((entry) => entry.name as string));
  const forward =
    (method: string) =>
    async (params: Params, ctx: ExtensionContext, servedAs: string | undefined, options: RequestOptions = {}) => {
      const { _meta: _, ...own } = params; // this hop's envelope stays here
      // The remote delivers under the name the caller subscribed by, if it is one of ours (it reads this param).
      const sent = servedAs === undefined || servedAs === own.name ? own : { ...own, [SERVED_AS]: servedAs };
      const caller = { auth: ctx.auth, meta: { wire: "mcp" as const, headers: new Headers() } };
      try {
        const result = await hop.withClient(caller, (c) => c.request(method, sent, { signal: ctx.signal, ...options }));
        const { resultType: _type, _meta: _second, ...answer } = result; // what describes the second hop
        return answer;
      } catch (error) {
        throw callerError(error, hop);
      }
    };
  const stream = forward("events/stream");
  const source: EventsSource = {
    entries: () => entries,
    has: (name) => names.has(name),
    subscribe: forward("events/subscribe"),
    unsubscribe: forward("events/unsubscribe"),
    poll: forward("events/poll"),
    // Push: the remote's stream relayed on the caller's, each notification renamed to the caller's stream (SEP-3415
    // "Push-Based Delivery": `_meta` names it by the request's id). Its cursors are the remote's, passed through, so a
    // caller resumes there; the remote's stream budgets bound what the proxy opens on it.
    stream: async (params, ctx, servedAs) => {
      const _meta = { [META.subscriptionId]: heldForPush(ctx).id };
      const onNotification = (method: string, sent: Params) => {
        if (method.startsWith("notifications/events/")) void ctx.notify(method, { ...sent, _meta });
      };
      try {
        // No idle timeout: the remote's heartbeats keep it alive, and the caller's abort (or a drain) ends it.
        await stream(params, ctx, servedAs, { onNotification, timeoutMs: 0 });
      } catch (error) {
        if (!ctx.signal.aborted) throw error;
      }
      return { _meta }; // SEP-3415's final result: the caller reconnects from its last cursor
    },
  };
  const router = routerOf(registry);
  router.remote = source;
  router.changed();
  if (refresh.refreshMs <= 0 || refresh.signal?.aborted) return;
  let reading = false;
  const timer = unrefTimer(setInterval(() => {
    if (reading) return;
    reading = true;
    remoteEvents(client).then((read) => {
      if (refresh.signal?.aborted || JSON.stringify(read) === JSON.stringify(entries)) return;
      entries = read;
      names = new Set(read.map((entry) => entry.name as string));
      router.changed();
    }, () => {}).finally(() => reading = false);
  }, refresh.refreshMs));
  refresh.signal?.addEventListener("abort", () => clearInterval(timer), { once: true });
}
