/**
 * The wire-free extension builder: an identifier checked against SEP-2133, settings, and request
 * methods whose names stay under the identifier. What serves the extension on a wire is given by the
 * caller (`src/assembly/served-extensions.ts`), so this file loads no binding.
 *
 * @module
 */
import type { Extension } from "../core/definitions/extension.ts";
import type { Feature } from "../core/definitions/feature.ts";
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";
import { compileSchema, type SchemaInput } from "../core/schema.ts";
import { checkScopes } from "../core/definitions/scopes.ts";

/** Builds the features that serve an extension, from what it is (an anonymous one's `id` is `""`). */
export type ServedBy = (
  extension: Pick<Extension, "id" | "advertised" | "methods" | "notifications" | "intercepts">,
) => readonly Feature[];

/**
 * `{vendor-prefix}/{name}`: the `_meta` key grammar with its prefix mandatory (SEP-2133, Identifiers;
 * MCP 2026-07-28, Basic: `_meta`). Each label of the prefix has a letter first, a letter or digit last and
 * `-` inside; the name is alphanumeric at both ends with `-_.` inside. A literal, so that a bundle without
 * extensions drops it (a `new RegExp()` at the top level is kept as a possible side effect).
 */
const IDENTIFIER =
  /^([A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A method's verb, after `${id}/`: as a name, `/` allowed inside too. */
const VERB = /^[A-Za-z0-9](?:[A-Za-z0-9._/-]*[A-Za-z0-9])?$/;

/** The second labels MCP reserves (`io.modelcontextprotocol/`, `dev.mcp/`; MCP 2026-07-28, Basic: `_meta`). */
const RESERVED = new Set(["modelcontextprotocol", "mcp"]);

/**
 * MCP's official extensions (SEP-2133, Official Extensions: the `ext-` repositories of the MCP
 * organisation, and the accepted SEPs), the only identifiers under a reserved prefix an extension may
 * take, with the method names their specifications give outside `${id}/`: anyone may implement one.
 */
const OFFICIAL: Readonly<Record<string, readonly string[]>> = {
  "io.modelcontextprotocol/tasks": ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update"],
  "io.modelcontextprotocol/ui": [], // SEP-1865: its `ui/*` methods run between the view and the host
  "io.modelcontextprotocol/skills": ["skills/list", "skills/get", "resources/directory/read"], // SEP-2640
  "io.modelcontextprotocol/oauth-client-credentials": [],
  "io.modelcontextprotocol/enterprise-managed-authorization": [],
  "io.modelcontextprotocol/events": [
    "events/list",
    "events/subscribe",
    "events/unsubscribe",
    "events/poll",
    "events/stream",
  ], // SEP-3415
};

/**
 * The methods an official MCP extension's specification names outside `${id}/` (none for another), less MCP's own
 * (the tasks extension's are served by MCP's core here).
 *
 * @param id The extension's identifier.
 * @returns The methods.
 */
export function officialMethods(id: string): readonly string[] {
  return Object.hasOwn(OFFICIAL, id) ? OFFICIAL[id].filter((name) => !CORE_METHODS.has(name)) : [];
}

/**
 * The request and notification methods of MCP itself, on every revision: no extension may claim one
 * (an identifier such as `resources/templates` could otherwise reach `resources/templates/list`). The
 * tasks extension's methods are here too: this server serves them itself.
 */
const CORE_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "ping",
  "server/discover",
  "subscriptions/listen",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "sampling/createMessage",
  "elicitation/create",
  "roots/list",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
  "tasks/update",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/roots/list_changed",
  "notifications/elicitation/complete",
  "notifications/tasks/status",
]);

/**
 * Checks an extension identifier: `{vendor-prefix}/{name}`, whose prefix is not one MCP reserves
 * unless it is one of MCP's official extensions.
 *
 * @param id The identifier.
 * @throws {TypeError} When it breaks the grammar or uses a reserved prefix for another extension.
 */
function checkIdentifier(id: string): void {
  const match = typeof id === "string" ? IDENTIFIER.exec(id) : null;
  if (match === null) {
    throw new TypeError(
      `defineExtension(${JSON.stringify(id)}): an identifier is {vendor-prefix}/{name}, e.g. "org.example/ledger"`,
    );
  }
  const second = match[1].split(".")[1];
  if (second !== undefined && RESERVED.has(second.toLowerCase()) && !Object.hasOwn(OFFICIAL, id)) {
    throw new TypeError(
      `defineExtension("${id}"): the prefix "${match[1]}/" is reserved for MCP itself (of it, only the official ` +
        `extensions ${Object.keys(OFFICIAL).join(", ")} may be defined)`,
    );
  }
}

/**
 * Checks a method's name: `${id}/` and a verb, or one the official extension's specification gives;
 * never one of MCP's core methods.
 *
 * @param id The extension's identifier.
 * @param name The method's name.
 * @param what What the name is of (a method, a notification), for the message.
 * @throws {TypeError} When the name is refused.
 */
function checkMethod(id: string, name: string, what = "method"): void {
  if (typeof name === "string" && CORE_METHODS.has(name)) {
    throw new TypeError(`extension "${id}": ${name} is a method of MCP itself`);
  }
  const verb = typeof name === "string" && name.startsWith(`${id}/`) ? name.slice(id.length + 1) : "";
  if (!VERB.test(verb) && !(Object.hasOwn(OFFICIAL, id) && OFFICIAL[id].includes(name))) {
    throw new TypeError(`extension "${id}": a ${what}'s name is "${id}/" and a verb, not ${JSON.stringify(name)}`);
  }
}

/**
 * Defines an extension, served by what `servedBy` builds. Without an identifier, an anonymous one: local to the
 * server that serves it, never advertised, claiming no name, for message middleware only (`.intercept()`).
 *
 * @param id The identifier, `{vendor-prefix}/{name}` (SEP-2133); none for an anonymous extension.
 * @param servedBy Builds the features that serve it (none by default: the value is then inert).
 * @returns The extension, with no settings and no methods.
 * @throws {TypeError} For an invalid or reserved identifier.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { defineExtension } from "./define-extension.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .settings({ currencies: ["EUR"] })
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }) => ({ id, balance: 0 }));
 * assert.deepEqual([...ledger.methods.keys()], ["org.example/ledger/get"]);
 * assert.throws(() => defineExtension("io.modelcontextprotocol/ledger"), /reserved/);
 * assert.throws(() => defineExtension().settings({}), /without an identifier/);
 * ```
 */
export function defineExtension<Id extends string = "">(id?: Id, servedBy: ServedBy = () => []): Extension<Id> {
  if (id !== undefined) checkIdentifier(id);
  return extensionOf((id ?? "") as Id, Object.freeze({}), new Map(), new Map(), servedBy, Object.freeze([]));
}

function extensionOf<Id extends string>(
  id: Id,
  advertised: Readonly<Record<string, unknown>>,
  methods: Extension["methods"],
  notifications: Extension["notifications"],
  servedBy: ServedBy,
  intercepts: readonly MessageMiddleware[],
): Extension<Id> {
  /** Refuses what only an extension with an identifier has: settings, methods and notifications. */
  const named = (what: string): void => {
    if (id === "") {
      throw new TypeError(
        `defineExtension() without an identifier is local to the server and only intercepts messages: .${what}() ` +
          `needs one, {vendor-prefix}/{name} (SEP-2133), to be advertised and to name its messages`,
      );
    }
  };
  /**
   * A message table with one more: its name checked (`checkMethod()`, none of this extension's yet), its params'
   * schema compiled, its scopes checked (a method's).
   */
  const adding = <M>(
    table: ReadonlyMap<string, M>,
    name: string,
    what: "method" | "notification",
    schema: SchemaInput,
    handle: unknown,
    scopes?: readonly string[],
  ): ReadonlyMap<string, M> => {
    named(what);
    checkMethod(id, name, what);
    if (methods.has(name) || notifications.has(name)) {
      throw new TypeError(`extension "${id}": the ${what} ${name} is defined already`);
    }
    const params = compileSchema(schema, `extension ${what} "${name}" params`);
    const required = scopes === undefined ? {} : { scopes: checkScopes(scopes, `extension method "${name}"`) };
    return new Map(table).set(name, { params, ...required, handle } as M);
  };
  const extension: Extension<Id> = {
    id,
    advertised,
    methods,
    notifications,
    intercepts,
    features: servedBy({ id, advertised, methods, notifications, intercepts }),
    settings(settings) {
      named("settings");
      if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
        throw new TypeError(`extension "${id}": settings must be a JSON object`);
      }
      return extensionOf(id, Object.freeze({ ...settings }), methods, notifications, servedBy, intercepts);
    },
    intercept(middleware) {
      if (typeof middleware !== "function") throw new TypeError(`extension "${id}": a middleware is a function`);
      const more = Object.freeze([...intercepts, middleware]);
      return extensionOf(id, advertised, methods, notifications, servedBy, more);
    },
    method(name, schema, handler, options) {
      const added = adding(methods, name, "method", schema, handler, options?.scopes);
      return extensionOf(id, advertised, added, notifications, servedBy, intercepts);
    },
    notification(name, schema, handler) {
      const added = adding(notifications, name, "notification", schema, handler);
      return extensionOf(id, advertised, methods, added, servedBy, intercepts);
    },
  };
  return Object.freeze(extension);
}
