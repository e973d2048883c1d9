/**
 * `defineEvent()`: the immutable event builder (SEP-3415 "Events Extension", ChatGPT's MCP Events): a checked name,
 * a description, the schemas of a subscription's arguments and of an occurrence's payload, and the `match` hook.
 * The value carries the hook (`~serve`) that attaches the events runtime to the server registering it.
 *
 * @module
 */
import type { EventDefinition } from "../core/definitions/event.ts";
import { compileSchema, type SchemaInput } from "../core/schema.ts";
import { serveEvent } from "./events-runtime.ts";

/** Dotted words of lowercase letters, digits, `_` and `-`, each starting with a letter (`order.shipped`). */
const NAME = /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)*$/;
/** Any JSON object: the default schema of the arguments and of the payload. */
const ANY_OBJECT = { type: "object" };

type Any = EventDefinition<string, never, never>;
type Parts = Pick<Any, "name" | "description" | "~input" | "~payload" | "~match" | "~delivery">;
/** The modes of SEP-3415 ("Delivery modes"). */
const MODES = ["webhook", "poll", "push"];

function eventOf(parts: Parts): Any {
  const definition: Any = {
    ...parts,
    "~serve": (server, options, attached) => serveEvent(definition as never, server, options, attached),
    describe: (description) => {
      if (typeof description !== "string") throw new TypeError(`event "${parts.name}": a description is a string`);
      return eventOf({ ...parts, description });
    },
    input: (schema) => {
      const compiled = compileSchema(schema as SchemaInput, `event "${parts.name}" input`);
      if (compiled.jsonSchema.type !== "object") {
        throw new TypeError(`event "${parts.name}" input: the schema must describe an object (type "object")`);
      }
      return eventOf({ ...parts, "~input": compiled }) as never;
    },
    payload: (schema) =>
      eventOf({ ...parts, "~payload": compileSchema(schema as SchemaInput, `event "${parts.name}" payload`) }) as never,
    match: (match) => {
      if (typeof match !== "function") throw new TypeError(`event "${parts.name}": match is a function`);
      return eventOf({ ...parts, "~match": match });
    },
    delivery: (modes) => {
      if (!Array.isArray(modes) || modes.length === 0 || !modes.every((mode) => MODES.includes(mode))) {
        throw new TypeError(`event "${parts.name}": delivery is a list of "webhook", "poll", "push"`);
      }
      return eventOf({ ...parts, "~delivery": Object.freeze([...new Set(modes)]) });
    },
  };
  return Object.freeze(definition);
}

/**
 * Defines an event a server raises and clients subscribe to (SEP-3415 "Events Extension"; ChatGPT's MCP Events):
 * listed by `events/list`, subscribed to with `events/subscribe` (arguments checked against `.input()`), delivered
 * by webhook (Standard Webhooks signatures) when the server calls `server.emit(name, payload)`. Register it with
 * `server.event()`; the server then advertises the events capability in both profiles.
 *
 * @param name The event's name: dotted words of lowercase letters, digits, `_` and `-` (`order.shipped`), at most
 *   128 characters.
 * @returns The event, with no description, any object as arguments and payload, and every subscription matched.
 * @throws {TypeError} For an invalid name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer } from "../../mod.ts";
 * import { defineEvent } from "./define-event.ts";
 * const shipped = defineEvent("order.shipped")
 *   .describe("An order left the warehouse")
 *   .input(v.object({ customerId: v.string() }))
 *   .payload(v.object({ orderId: v.string(), customerId: v.string() }))
 *   .match((input, payload) => input.customerId === payload.customerId);
 * const server = createServer({ name: "shop", version: "1.0.0" }).event(shipped);
 * const { deliveries } = await server.emit("order.shipped", { orderId: "o1", customerId: "c1" });
 * assert.equal(deliveries, 0); // nobody subscribed yet
 * assert.throws(() => defineEvent("Order Shipped"), TypeError);
 * ```
 */
export function defineEvent<const Name extends string>(
  name: Name,
): EventDefinition<Name, Record<string, unknown>, Record<string, unknown>> {
  if (typeof name !== "string" || name.length > 128 || !NAME.test(name)) {
    throw new TypeError(
      `defineEvent(${JSON.stringify(name)}): a name is dotted lowercase words ([a-z][a-z0-9_-]*), e.g. "order.shipped"`,
    );
  }
  const object = compileSchema(ANY_OBJECT, `event "${name}"`);
  return eventOf({
    name,
    description: undefined,
    "~input": object,
    "~payload": object,
    "~match": () => true,
    "~delivery": MODES as Any["~delivery"],
  }) as never;
}
