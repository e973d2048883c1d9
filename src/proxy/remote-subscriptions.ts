/**
 * A caller's resource subscription made at the remote: the first caller to listen to a URI subscribes the
 * proxy to it (`resources/subscribe` on an MCP 2025 remote that declared `subscribe`, MCP 2025-11-25, Resources:
 * Subscriptions; a `subscriptions/listen` stream with that URI on an MCP 2026-07-28 remote), the last to leave
 * unsubscribes it; a caller with a remote session of its own (./caller-sessions.ts) subscribes in it. The
 * remote's updates are relayed by ./remote-notices.ts.
 *
 * @module
 */
import type { ResourceWatch } from "../core/definitions/resource-watch.ts";
import { isObject } from "../internal/is-object.ts";
import { listenRemote } from "./listen-remote.ts";
import type { Client } from "../client/client.ts";
import type { Remote } from "./remote.ts";

/** One URI watched at the remote: how many callers listen, and how to stop. */
interface Watched {
  listeners: number;
  readonly stop: () => void;
}

/**
 * Makes the watch of a proxy's resources.
 *
 * @param remote The remote.
 * @param described Whether the remote speaks MCP 2026-07-28, its capabilities, and whether callers have
 *   sessions of their own there.
 * @param signal The proxy's: ends the listen streams of an MCP 2026-07-28 remote with the proxy.
 * @returns The watch, or `undefined` when the remote cannot be subscribed to (it declared no `subscribe`, or
 *   its notifications go unheard: a client given).
 */
export function remoteSubscriptions(
  remote: Remote,
  { modern, capabilities, sessioned }: {
    modern: boolean;
    capabilities: Record<string, unknown> | undefined;
    sessioned: boolean;
  },
  signal: AbortSignal | undefined,
): ResourceWatch | undefined {
  const resources = capabilities?.resources;
  if (remote.listen === undefined) return undefined;
  if (!modern && !(isObject(resources) && resources.subscribe === true)) return undefined;
  const shared = modern ? (uri: string) => listenFor(remote, uri, signal) : (uri: string) => {
    const stop = subscribeTo(remote.client, uri);
    return () => void stop();
  };
  // A caller told apart subscribes in its own session, held until unsubscribed there, whose updates are its alone;
  // one let go meanwhile (the proxy closed) is not opened again to unsubscribe.
  const own = (caller: string, uri: string) => {
    const held = remote.holdFor!(caller);
    const stop = subscribeTo(held.client, uri, () => !held.dropped());
    return () => void stop().finally(held.release);
  };
  const watched = new Map<string, Watched>();
  return (uri, caller) => {
    const mine = sessioned && caller !== undefined;
    const key = mine ? JSON.stringify([caller, uri]) : uri;
    const subscribe = () => mine ? own(caller, uri) : shared(uri);
    let entry = watched.get(key);
    if (entry === undefined) watched.set(key, entry = { listeners: 0, stop: subscribe() });
    entry.listeners++;
    const held = entry;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--held.listeners > 0) return;
      watched.delete(key);
      held.stop();
    };
  };
}

/** MCP 2025: `resources/subscribe` now, `resources/unsubscribe` at the end (if still `live`), in that order. */
function subscribeTo(client: Client, uri: string, live = () => true): () => Promise<void> {
  // A remote out of reach meanwhile is not subscribed to: its failure is a call's to report, not this one's.
  const sent = send(client, "resources/subscribe", uri);
  return () => sent.then(() => live() ? send(client, "resources/unsubscribe", uri) : undefined);
}

async function send(client: Client, method: string, uri: string): Promise<void> {
  try {
    await client.request(method, { uri });
  } catch {
    // see subscribeTo
  }
}

/** MCP 2026-07-28: a `subscriptions/listen` stream for the URI, kept open until the end. */
function listenFor(remote: Remote, uri: string, closed: AbortSignal | undefined): () => void {
  const listening = new AbortController();
  const signal = closed === undefined ? listening.signal : AbortSignal.any([listening.signal, closed]);
  listenRemote(remote, { resourceSubscriptions: [uri] }, signal, () => {});
  return () => listening.abort();
}
