/**
 * How a server relays through a notifier on Cloudflare Workers: an I/O object (a WebSocket, a stream) made while
 * handling one request cannot be used while handling another ("Cannot perform I/O on behalf of a different
 * request", Cloudflare Workers docs, Runtime APIs: Request context). One subscription per instance, as on a
 * process, would be made in the first request and could not write to a stream opened by a later one. So each
 * listening stream subscribes from its own request and hears only what its own subscription delivers, this
 * isolate's changes included; and each change is published from the request that raised it.
 *
 * @module
 */
import type { Notifier } from "../core/instance/notifier.ts";
import type { Definitions, RegistryChange } from "../core/definitions/registry.ts";
import { changeOf, type Relay } from "../server/relay.ts";

/**
 * Relays a server's changes through `notifier`, a subscription per listening stream. Changes raised as the server
 * is built (in the turn that created it: at module scope, or in the request that made it) are its starting
 * definitions, the same on every isolate, and a Worker's module scope may do no I/O: they are not published.
 *
 * @param registry The server's registry.
 * @param notifier The channel.
 * @param onError Receives publish and subscribe errors.
 */
export const requestRelay: Relay = (registry: Definitions, notifier: Notifier, onError) => {
  let built = false;
  void Promise.resolve().then(() => built = true);
  registry.onChange((change) => {
    if (!built || change.kind === "config") return; // the configuration schema is each instance's own
    notifier.publish(JSON.stringify({ change })).catch((error) => onError?.(error));
  });
  registry.listen = (listener: (change: RegistryChange) => void, ready?: () => void) => {
    let closed = false;
    let unsubscribe: (() => Promise<void>) | undefined;
    notifier.subscribe((message) => {
      const change = changeOf(message, ""); // none skipped: this isolate's changes come through the object too
      if (change !== undefined && !closed) listener(change);
    }, onError).then((stop) => {
      if (closed) void stop().catch(() => {});
      else unsubscribe = stop;
    }, (error) => onError?.(error)).finally(() => {
      if (!closed) ready?.();
    });
    return () => {
      closed = true;
      void unsubscribe?.().catch(() => {});
    };
  };
};
