/**
 * Watching a resource while a client listens: a resource whose contents live elsewhere (a proxied one) may carry
 * a `watch` hook, which the wires that keep resource subscriptions (MCP's `resources/subscribe` on a 2025
 * session, a `subscriptions/listen` stream's `resourceSubscriptions` on 2026-07-28) call once per subscription,
 * and whose returned function they call when that subscription ends. Internal: not part of {@link Resource}'s
 * public shape; a definition carries it through grouping as any other property.
 *
 * @module
 */
import type { Resource } from "./resource.ts";

/**
 * Starts watching a URI the resource answers (its own, or one its template matches).
 *
 * @param uri The URI a client subscribed to.
 * @param caller Who subscribed (`callerKey()`), if the caller can be told apart: a proxy subscribes in that
 *   caller's own remote session, and that session's updates go to that caller alone.
 * @returns Stops watching, once that subscription ended.
 */
export type ResourceWatch = (uri: string, caller?: string) => () => void;

/** A resource that may be watched. */
export type WatchedResource<TUri extends string = string> = Resource<TUri> & { readonly watch?: ResourceWatch };
