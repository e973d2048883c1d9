/**
 * An MCP extension as the server holds it (SEP-2133, "Extensions"): its identifier, the settings the
 * server advertises for it in `capabilities.extensions`, and the request methods it adds. Wire-free:
 * `defineExtension()` makes one, and the features it carries tell each binding how to serve it.
 *
 * @module
 */
import type { ClientView } from "./client-view.ts";
import type { MessageMiddleware } from "./message-middleware.ts";
import type { CompiledSchema, InferSchemaOutput, NotAShape, SchemaInput } from "./schema.ts";

/**
 * An extension (SEP-2133): an immutable value, each builder method returning a new one. Serve it with
 * `server.extension(extension)`.
 *
 * @typeParam Id The extension's identifier, `{vendor-prefix}/{name}`; every method name starts with `${Id}/`.
 */
export interface Extension<Id extends string = string> {
  /** The identifier, `{vendor-prefix}/{name}` (SEP-2133), e.g. `org.example/ledger`. */
  readonly id: Id;
  /** What the server advertises for it: `capabilities.extensions[id]` (`{}`, no settings, by default). */
  readonly advertised: Readonly<Record<string, unknown>>;
  /** Its request methods, by name: the params' compiled schema and the handler. */
  readonly methods: ReadonlyMap<
    string,
    {
      readonly params: CompiledSchema;
      readonly handle: (
        params: unknown,
        ctx: { readonly client: ClientView; readonly signal: AbortSignal },
      ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
    }
  >;
  /** Its message middleware, in the order added: they run after the server's own (`server.intercept()`). */
  readonly intercepts: readonly MessageMiddleware[];
  /** What the definition brings to the wires that serve it (the MCP methods), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /**
   * Sets what the server advertises for the extension (SEP-2133: a settings object, `{}` meaning none).
   *
   * @param settings The settings, a JSON object.
   * @returns A new extension with them.
   */
  settings(settings: Readonly<Record<string, unknown>>): Extension<Id>;
  /**
   * Adds a message middleware: it sees every JSON-RPC message of the server that serves the extension, both
   * directions, on every transport that carries them (MCP over HTTP, stdio and a WebSocket). The server's own
   * middleware (`server.intercept()`) run first, then each extension's, in the order the extensions were served
   * (`server.extension()`), each extension's in the order added.
   *
   * @param middleware The middleware: `(message, info, next)`, as `MessageMiddleware` (`@mcplite/sdk/types`) says.
   * @returns A new extension with it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer, defineExtension } from "../../mod.ts";
   * const methods: string[] = [];
   * const audit = defineExtension("org.example/audit").intercept(async (message, info, next) => {
   *   if (info.direction === "in") methods.push(String(info.method));
   *   await next();
   * });
   * const server = createServer({ name: "demo", version: "1.0.0" }).extension(audit);
   * await server.fetch(new Request("http://localhost/mcp", {
   *   method: "POST",
   *   headers: { "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
   *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
   * }));
   * assert.deepEqual(methods, ["ping"]);
   * ```
   */
  intercept(middleware: MessageMiddleware): Extension<Id>;
  /**
   * Adds a request method. Its params are validated against the schema (MCP's `_meta` is not part of
   * them); a mismatch answers `invalid_params` (-32602) with the issues in the error's data.
   *
   * @param name The method's name: `${id}/` and a verb (`org.example/ledger/get`).
   * @param schema The params' schema: a valibot object schema, a Standard Schema or a JSON Schema object.
   * @param handler Answers with the result, a JSON object; `ctx.client` is what the client declared,
   *   `ctx.signal` aborts when the client goes away.
   * @returns A new extension with the method.
   */
  method<S extends SchemaInput>(
    name: `${Id}/${string}`,
    schema: S & NotAShape<S>,
    handler: (
      params: InferSchemaOutput<S>,
      ctx: { readonly client: ClientView; readonly signal: AbortSignal },
    ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>,
  ): Extension<Id>;
}
