/**
 * Typed caches of values derived from a registry's definitions (list bodies, ETags, capability
 * objects, resolved configurations): a binding declares a slot once per kind of value, and reads it
 * through `registry.cached(slot, key, build)`. The registry drops every slot's values on each change
 * of its definitions or of the server's configuration schema, so a value is built once per change,
 * never per request.
 *
 * @module
 */

/**
 * One kind of derived value, typed: declare it once at module level and read it through
 * `registry.cached()`.
 *
 * @typeParam V The type of the values kept in the slot.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CacheSlot } from "./cache-slot.ts";
 * import { Definitions } from "./registry.ts";
 * import { Runtime } from "../instance/runtime.ts";
 *
 * const NAMES = new CacheSlot<string>("example:names");
 * const registry = new Definitions(new Runtime());
 * let built = 0;
 * const names = () => registry.cached(NAMES, "all", () => (built++, [...registry.tools].map((tool) => tool.name).join(",")));
 * assert.equal(names(), "");
 * assert.equal(names(), "");
 * assert.equal(built, 1); // built once, until the definitions change
 * ```
 */
export class CacheSlot<V> {
  /** What the slot holds, for debugging. */
  declare readonly name: string;
  /** Only here to carry the value type; never set. */
  declare readonly value?: V;

  /**
   * Declares a slot.
   *
   * @param name What the slot holds, for debugging (e.g. `"mcplite:list"`).
   */
  constructor(name: string) {
    this.name = name;
  }
}
