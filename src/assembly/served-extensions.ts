/**
 * Extensions, served: the wire-free extension builder (`src/extension/`) given the feature of the
 * binding that serves extensions (MCP: the methods, and `capabilities.extensions`). The definition
 * declares what it is; this file wires it to what serves it, so a server without extensions does not
 * load or bundle that code (`src/core/definitions/feature.ts`).
 *
 * @module
 */
import type { Extension, Feature, Registry } from "../core/mod.ts";
import { extensionOnMcp } from "../bindings/mcp/extensions.ts";
import { extensionOnLite } from "../bindings/mcplite/extensions.ts";
import { extensionFeature } from "../bindings/extension-feature.ts";
import { defineExtension as extensionOf, type ServedBy } from "../extension/define-extension.ts";
import { respondThrough } from "../bindings/mcp/http-messages.ts";
import { connectionMessages } from "../message-middleware/connection-messages.ts";
import { type MessageLayer, MESSAGES } from "../message-middleware/message-feature.ts";

/**
 * What serves an extension: the MCP messages it adds and its entry in the capabilities; its MCP-lite methods;
 * and its message middleware, with what runs them over HTTP and on a connection. An anonymous extension
 * (`id` `""`) has the middleware alone.
 */
const EXTENSIONS_SERVED_BY: ServedBy = (extension) => {
  const features: Feature[] = extension.id === "" ? [] : [
    extensionOnMcp(extension),
    extensionOnLite(extension),
    extensionFeature(extension), // what MCP-lite's discovery and gRPC read, and the claims checked as it is served
  ];
  const intercepts = extension.intercepts;
  if (intercepts.length > 0) {
    // As it is served: its middleware join the registry's chain, after those of the extensions served before it.
    const messages: Feature = {
      admit: (registry: Registry) => {
        if (registry.features.has(messages)) throw new TypeError("this extension is served already");
        const carrier = registry as { [MESSAGES]?: MessageLayer };
        (carrier[MESSAGES] ??= { chain: [], http: respondThrough, connection: connectionMessages }).chain.push(
          ...intercepts,
        );
      },
    };
    features.push(messages);
  }
  return features;
};

/**
 * Defines an MCP extension (SEP-2133): an identifier `{vendor-prefix}/{name}`, the settings the server
 * advertises for it (`.settings()`), the request methods (`.method()`) and client notifications
 * (`.notification()`) it adds, each named under the identifier, and its message middleware (`.intercept()`).
 * Serve it with `server.extension()`: its messages are served on every MCP revision (and on MCP-lite's
 * JSON-RPC endpoints), and `capabilities.extensions[id]` appears in `server/discover` and `initialize`.
 * Handlers see what the client declared as `ctx.client.extensions`, send notifications on the request's
 * stream with `ctx.notify()`, and on the 2025 revisions ask the client with `ctx.request()`.
 *
 * Without an identifier, `defineExtension()` makes an anonymous extension: local to the server, never
 * advertised, claiming no name, for an application's own message middleware (`.intercept()`; `.settings()`,
 * `.method()` and `.notification()` throw a `TypeError`). Middleware run in the order their extensions were
 * served: an anonymous extension served first runs first.
 *
 * @param id The identifier, e.g. `org.example/ledger`; a prefix whose second label is `modelcontextprotocol`
 *   or `mcp` is reserved (MCP 2026-07-28, Basic: `_meta`). None for an anonymous extension.
 * @returns The extension, with no settings and no methods; each builder method returns a new one.
 * @throws {TypeError} For an invalid or reserved identifier (and, from `.method()` and `.notification()`, for
 *   a name outside it, one of MCP's, or one defined already).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer } from "../../mod.ts";
 * import { defineExtension } from "./served-extensions.ts";
 * const ledger = defineExtension("org.example/ledger")
 *   .settings({ currencies: ["EUR"] })
 *   .method("org.example/ledger/get", v.object({ id: v.string() }), ({ id }, ctx) => ({
 *     id,
 *     balance: 42,
 *     clientDeclared: ctx.client.extensions?.["org.example/ledger"] !== undefined,
 *   }))
 *   .method("org.example/ledger/refresh", v.object({ id: v.string() }), async ({ id }, ctx) => {
 *     await ctx.notify("org.example/ledger/changed", { id }); // on this request's stream
 *     return { id };
 *   })
 *   .notification("org.example/ledger/touched", v.object({ id: v.string() }), ({ id }) => {
 *     console.error(`the client touched ${id}`);
 *   });
 * const server = createServer({ name: "bank", version: "1.0.0" }).extension(ledger);
 * assert.throws(() => server.extension(ledger), /served already/);
 * ```
 *
 * @example An application's own message middleware: an anonymous extension
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../mod.ts";
 * import { defineExtension } from "./served-extensions.ts";
 * const seen: string[] = [];
 * const log = defineExtension().intercept(async (message, info, next) => {
 *   seen.push(`${info.direction} ${info.method}`);
 *   await next();
 * });
 * const server = createServer({ name: "demo", version: "1.0.0" }).extension(log);
 * const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
 * const headers = { "content-type": "application/json", "mcp-protocol-version": "2025-06-18" };
 * await server.fetch(new Request("http://localhost/mcp", { method: "POST", headers, body }));
 * assert.deepEqual(seen, ["in ping", "out ping"]);
 * assert.throws(() => log.settings({ currency: "EUR" }), /without an identifier/);
 * ```
 */
export function defineExtension<Id extends string = "">(id?: Id): Extension<Id> {
  return extensionOf(id, EXTENSIONS_SERVED_BY);
}
