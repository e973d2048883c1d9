/**
 * What a remote notifies outside any request besides its list changes, relayed to the proxy's listeners: the
 * updates of its resources (`notifications/resources/updated`), to the callers that subscribed, on every wire
 * that carries them.
 *
 * @module
 */
import type { Definitions } from "../core/registry.ts";
import type { Remote } from "./remote.ts";

/**
 * Relays the remote's resource updates to the proxy server's listeners.
 *
 * @param remote The remote (a client given is not heard).
 * @param definitions The proxy server's definitions (its grouping server hears what they tell).
 * @param signal Stops relaying.
 */
export function relayRemoteNotices(remote: Remote, definitions: Definitions, signal: AbortSignal | undefined): void {
  remote.listen?.((method, params) => {
    if (signal?.aborted) return;
    if (method === "notifications/resources/updated" && typeof params.uri === "string") {
      definitions.resourceUpdated(params.uri);
    }
  });
}
