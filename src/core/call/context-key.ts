/**
 * Typed keys for the values middleware hands to handlers (`ctx.set(key, value)`, `ctx.get(key)`).
 *
 * @module
 */

/** A typed key for per-call values set by middleware (as Connect's `createContextKey`). */
export interface ContextKey<T> {
  /** The unique identity of the key. */
  readonly id: symbol;
  /** The value returned when none was set. */
  readonly defaultValue: T;
}

/**
 * Creates a typed key for values that middleware hands to handlers.
 *
 * @param defaultValue The value returned when none was set.
 * @param description A name for debugging.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { createContextKey } from "./context-key.ts";
 * const tenantKey = createContextKey("public", "tenant");
 * // in middleware: ctx.set(tenantKey, "acme"); in a handler: ctx.get(tenantKey)
 * ```
 */
export function createContextKey<T>(defaultValue: T, description?: string): ContextKey<T> {
  return { id: Symbol(description), defaultValue };
}
