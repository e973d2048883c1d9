/**
 * How changes raised on one server instance (list_changed, resource updates) reach the listeners held
 * by every other instance: a channel every instance publishes to and subscribes to, such as Redis
 * pub/sub. Messages are strings, so any broadcast channel can carry them.
 *
 * @module
 */

/** A broadcast channel shared by every instance of a server. */
export interface Notifier {
  /**
   * Sends a message to every subscriber on every instance (this one's included).
   *
   * @param message The message.
   * @returns When it is sent.
   */
  publish(message: string): Promise<void>;
  /**
   * Receives every message published from now on, until the returned function is called.
   *
   * @param listener Called with each message.
   * @param onError Receives the channel's errors (a broker restarting), once per outage.
   * @returns When subscribed: the function that unsubscribes.
   */
  subscribe(listener: (message: string) => void, onError?: (error: unknown) => void): Promise<() => Promise<void>>;
  /**
   * How the server relays through this notifier, when not with one subscription for the instance: a notifier
   * whose subscriptions serve only the request that made them (`durableObjectNotifier()`, for Cloudflare Workers'
   * isolates) brings its own. Opaque: built by this package; a notifier of your own leaves it out.
   */
  readonly relay?: { readonly capability: "relay" };
}
