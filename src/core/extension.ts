/**
 * An MCP extension as the server holds it (SEP-2133, "Extensions"): its identifier, the settings the
 * server advertises for it in `capabilities.extensions`, and the request methods it adds. Wire-free:
 * `defineExtension()` makes one, and the features it carries tell each binding how to serve it.
 *
 * @module
 */
import type { ClientView } from "./client-view.ts";
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
        ctx: {
          readonly client: ClientView;
          readonly signal: AbortSignal;
          notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
          request(
            method: string,
            params?: Readonly<Record<string, unknown>>,
          ): Promise<Readonly<Record<string, unknown>>>;
        },
      ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
    }
  >;
  /**
   * Its notifications from the client, by name: the params' compiled schema and the handler. A notification
   * is never answered: params that fail the schema, and a handler's failure, go to the server's `onError`.
   */
  readonly notifications: ReadonlyMap<
    string,
    {
      readonly params: CompiledSchema;
      readonly handle: (
        params: unknown,
        ctx: {
          readonly client: ClientView;
          readonly signal: AbortSignal;
          notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
          request(
            method: string,
            params?: Readonly<Record<string, unknown>>,
          ): Promise<Readonly<Record<string, unknown>>>;
        },
      ) => void | Promise<void>;
    }
  >;
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
   * Adds a request method. Its params are validated against the schema (MCP's `_meta` is not part of
   * them); a mismatch answers `invalid_params` (-32602) with the issues in the error's data.
   *
   * @param name The method's name: `${id}/` and a verb (`org.example/ledger/get`).
   * @param schema The params' schema: a valibot object schema, a Standard Schema or a JSON Schema object.
   * @param handler Answers with the result, a JSON object. `ctx.client` is what the client declared;
   *   `ctx.signal` aborts when the client goes away; `ctx.notify(method, params)` sends the client a
   *   notification on this request's own stream (MCP 2026-07-28 allows only request-related ones: the
   *   request's SSE answer; on the 2025 revisions its SSE stream, stdio or the WebSocket), dropped where
   *   nothing streams (a client that does not accept SSE, MCP-lite, gRPC); `ctx.request(method, params)`
   *   asks the client and resolves with its result, on the 2025 revisions only (MCP 2026-07-28 has no
   *   server→client requests; it rejects there with `unsupported`, as where nothing streams).
   * @returns A new extension with the method.
   */
  method<S extends SchemaInput>(
    name: `${Id}/${string}`,
    schema: S & NotAShape<S>,
    handler: (
      params: InferSchemaOutput<S>,
      ctx: {
        readonly client: ClientView;
        readonly signal: AbortSignal;
        notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
        request(method: string, params?: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>>;
      },
    ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>,
  ): Extension<Id>;
  /**
   * Adds a notification the client sends (SEP-2133: an extension's own messages). It is never answered
   * (JSON-RPC 2.0, Notification; MCP 2026-07-28 Streamable HTTP answers its POST 202): params that fail
   * the schema, and what the handler throws, are reported to the server's `onError`.
   *
   * @param name The notification's name: `${id}/` and a verb (`org.example/ledger/touched`).
   * @param schema The params' schema: a valibot object schema, a Standard Schema or a JSON Schema object.
   * @param handler Handles it; `ctx` is a method's, where `ctx.notify` sends only on a connection (stdio,
   *   a WebSocket: a notification over HTTP has no stream of its own) and `ctx.request` rejects.
   * @returns A new extension with the notification.
   */
  notification<S extends SchemaInput>(
    name: `${Id}/${string}`,
    schema: S & NotAShape<S>,
    handler: (
      params: InferSchemaOutput<S>,
      ctx: {
        readonly client: ClientView;
        readonly signal: AbortSignal;
        notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
        request(method: string, params?: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>>;
      },
    ) => void | Promise<void>,
  ): Extension<Id>;
}
