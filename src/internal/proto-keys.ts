/**
 * `__proto__` as a key of data: dropped from what a wire decodes (as `parseJson` drops it while it
 * parses), and set as an own property where data is copied, never as the copy's prototype.
 *
 * @module
 */

const PROTO = "__proto__";

/**
 * Returns a decoded value with every own `__proto__` key dropped, at any depth: the same value when it
 * has none (the usual case: nothing is copied), else a copy of the objects and arrays on the way to one.
 * A decoder that keeps such a key as an own property (protobuf-es does for a `google.protobuf.Struct`'s
 * map) hands on an object whose next copy by assignment (`out[key] = value`, `Object.assign`) sets that
 * copy's prototype instead (ECMA-262 Annex B.2.2.1, `Object.prototype.__proto__`), so that
 * it then reads keys the caller never sent as its own.
 *
 * @param value A decoded value (JSON data: objects, arrays, scalars).
 * @returns The value with no `__proto__` key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withoutProto } from "./proto-keys.ts";
 * const decoded = JSON.parse('{"q":"x","__proto__":{"role":"admin"}}');
 * assert.deepEqual(Object.keys(withoutProto(decoded) as object), ["q"]);
 * ```
 */
export function withoutProto(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const clean = withoutProto(item);
      if (clean !== item) (copy ??= value.slice())[i] = clean;
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  let copy = Object.hasOwn(record, PROTO) ? ownCopy(record) : undefined;
  for (const key of Object.keys(record)) {
    if (key === PROTO) continue;
    const item = record[key];
    const clean = withoutProto(item);
    if (clean !== item) (copy ??= ownCopy(record))[key] = clean;
  }
  return copy ?? value;
}

/** A plain copy of an object's own enumerable keys but `__proto__` (assigning any other key is safe). */
function ownCopy(record: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== PROTO) copy[key] = record[key];
  return copy;
}

/**
 * Sets a key of a plain object as its own data property, whatever the key: assignment would set the
 * object's prototype for `__proto__` (ECMA-262 Annex B.2.2.1) where this defines a property (as
 * `JSON.parse` and object spread do).
 *
 * @param target The object.
 * @param key The key.
 * @param value Its value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { setOwn } from "./proto-keys.ts";
 * const args: Record<string, unknown> = {};
 * setOwn(args, "__proto__", { role: "admin" });
 * assert.equal(args.role, undefined);
 * assert.equal(Object.getPrototypeOf(args), Object.prototype);
 * ```
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== PROTO) target[key] = value;
  else Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
