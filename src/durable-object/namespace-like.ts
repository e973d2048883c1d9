/**
 * What the Durable Object store and notifier need of a Worker's namespace binding: one declaration both read.
 *
 * @module
 */

/**
 * What the store and the notifier need of a Durable Object namespace binding (`DurableObjectNamespace` of
 * `@cloudflare/workers-types`, whose class is `ResultObject`): naming an object and reaching it. Type a Worker's
 * `Env` with it when the Workers types are not installed.
 *
 * @typeParam Id The namespace's object ids (`DurableObjectId`).
 *
 * @example
 * ```ts
 * import type { DurableObjectNamespaceLike } from "@mcplite/sdk/durable-object";
 * interface Env {
 *   readonly MCPLITE_RESULTS: DurableObjectNamespaceLike; // bound to the `ResultObject` class in wrangler.jsonc
 * }
 * ```
 */
export interface DurableObjectNamespaceLike<Id = unknown> {
  /** The id of the object of this name, the same from every isolate. */
  idFromName(name: string): Id;
  /** A stub of that object, to send it requests. */
  get(id: Id): { fetch(input: string, init?: RequestInit): Promise<Response> };
}
