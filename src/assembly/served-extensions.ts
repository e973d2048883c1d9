/**
 * Extensions, served: the wire-free extension builder (`src/extension/`) given the feature of the
 * binding that serves extensions (MCP: the methods, and `capabilities.extensions`). The definition
 * declares what it is; this file wires it to what serves it, so a server without extensions does not
 * load or bundle that code (`src/core/feature.ts`).
 *
 * @module
 */
import type { Extension } from "../core/extension.ts";
import { extensionOnMcp } from "../bindings/mcp/extensions.ts";
import { extensionOnLite } from "../bindings/mcplite/extensions.ts";
import { extensionFeature } from "../bindings/extension-feature.ts";
import { defineExtension as extensionOf, type ServedBy } from "../extension/define-extension.ts";

/** What serves an extension: the MCP messages it adds and its entry in the capabilities; its MCP-lite methods. */
const EXTENSIONS_SERVED_BY: ServedBy = (extension) => [
  extensionOnMcp(extension),
  extensionOnLite(extension),
  extensionFeature(extension), // what MCP-lite's discovery and gRPC read
];

/**
 * Defines an MCP extension (SEP-2133): an identifier `{vendor-prefix}/{name}`, the settings the server
 * advertises for it (`.settings()`), and the request methods (`.method()`) and client notifications
 * (`.notification()`) it adds, each named under the identifier. Serve it with `server.extension()`: its
 * messages are served on every MCP revision (and on MCP-lite's JSON-RPC endpoints), and
 * `capabilities.extensions[id]` appears in `server/discover` and `initialize`. Handlers see what the
 * client declared as `ctx.client.extensions`, send notifications on the request's stream with
 * `ctx.notify()`, and on the 2025 revisions ask the client with `ctx.request()`.
 *
 * @param id The identifier, e.g. `org.example/ledger`; a prefix whose second label is `modelcontextprotocol`
 *   or `mcp` is reserved (MCP 2026-07-28, Basic: `_meta`).
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
 */
export function defineExtension<Id extends string>(id: Id): Extension<Id> {
  return extensionOf(id, EXTENSIONS_SERVED_BY);
}
