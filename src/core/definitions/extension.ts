/**
 * An MCP extension as the server holds it (SEP-2133, "Extensions"): its identifier, the settings the
 * server advertises for it in `capabilities.extensions`, and the request methods it adds. Wire-free:
 * `defineExtension()` makes one, and the features it carries tell each binding how to serve it. A skill
 * (SEP-2640) is declared here too (`./skill.ts` names it): it carries the Skills extension, whose
 * handlers read the skills served, so the two types refer to each other.
 *
 * @module
 */
import type { ClientView } from "../call/client-view.ts";
import type { AuthInfo } from "../call/host.ts";
import type { MessageMiddleware } from "../../message-middleware/message-middleware.ts";
import type { CompiledSchema, InferSchemaOutput, NotAShape, SchemaInput } from "../schema.ts";

/**
 * What an extension's handler is given besides the params (`defineExtension().method()`, `.notification()`):
 * who the client is and what it declared, the request's signal and revision, the extension's settings, what
 * the server serves, and the request's channel back to the client.
 */
export interface ExtensionContext {
  /** What the client declared (`ctx.client.extensions`, its capabilities, who it is). */
  readonly client: ClientView;
  /**
   * The authenticated caller, as a tool's `ctx.auth`: what the server's `auth` made of the request's credentials, or
   * what request middleware set; `undefined` without authentication.
   */
  readonly auth: AuthInfo | undefined;
  /** Aborts when the client goes away or cancels the request. */
  readonly signal: AbortSignal;
  /** The MCP revision the request is of (`"2026-07-28"`, `"2025-11-25"`…); `""` on a wire without one. */
  readonly protocolVersion: string;
  /**
   * What the server advertises for the extension: its `.settings()`, with what the server's options add
   * (MCP's `directoryRead` for `io.modelcontextprotocol/skills`).
   */
  readonly settings: Readonly<Record<string, unknown>>;
  /** What the server serves, read-only: its skills (SEP-2640) in the order registered, and one by URI. */
  readonly served: { readonly skills: Iterable<Skill>; skill(uri: string): Skill | undefined };
  /**
   * Answers as MCP's own lists do (MCP 2026-07-28, Basic: Pagination): the page of the items the request's
   * `cursor` picks at the server's page size, `nextCursor` while more follow, cacheable as the server's lists
   * are (see `cacheable`). `items` runs once per change of the server's definitions (never per request), so
   * it must not depend on the caller. On a wire without pages (MCP-lite, gRPC), every item at once.
   *
   * @param field The result's field for the items, e.g. `skills`.
   * @param items Builds the whole list.
   * @returns The result to answer with.
   */
  page(field: string, items: () => readonly unknown[]): Readonly<Record<string, unknown>>;
  /**
   * The result, cacheable as the server's lists are (its `listCache` hint): `ttlMs` and `cacheScope` added on
   * 2026-07-28 (`CacheableResult`), and over HTTP an `ETag` and `Cache-Control`; as it is on other wires.
   *
   * @param result The result.
   * @returns The result to answer with.
   */
  cacheable(result: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
  /**
   * Sends the client a notification on this request's own stream (MCP 2026-07-28 allows only request-related
   * ones: the request's SSE answer; on the 2025 revisions its SSE stream, stdio or the WebSocket; MCP-lite's `/rpc`
   * answered as SSE; gRPC's `CallMethodStream`). Dropped where nothing streams (a client that does not accept SSE,
   * gRPC's unary `CallMethod`; a notification's handler over HTTP).
   *
   * @param method The notification's method (`org.example/ledger/changed`).
   * @param params Its params.
   */
  notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Asks the client and resolves with its result: on the 2025 revisions only, on the request's stream (MCP
   * 2026-07-28 has no server→client requests); elsewhere it rejects with `unsupported`.
   *
   * @param method The request's method.
   * @param params Its params.
   * @returns The client's result.
   */
  request(method: string, params?: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>>;
  /**
   * Holds the request open as a long-lived stream of notifications (SEP-3415 "Push": `events/stream`): it leaves the
   * server's request budgets (`limits.calls`) at once, so the handler must bound such requests itself. Absent, or
   * answering `undefined`, where notifications cannot reach the client (a client that does not accept SSE, gRPC's
   * unary `CallMethod`): the handler should then refuse. While it is held, `signal` also aborts when the
   * server drains (`server.drain()`, which `listener.close()` calls), the client's stream still open: answer the
   * request's last result then (for `events/stream`, SEP-3415's final result), so that the client reconnects.
   *
   * @returns Who the caller is for a per-caller budget (`limits.perCaller`'s key: the authenticated subject, else the
   *   client's address; `""` when unknown), and the request's JSON-RPC id (on gRPC, which has none, an id of the
   *   stream's own), which names the stream in each of its notifications (SEP-3415:
   *   `_meta["io.modelcontextprotocol/subscriptionId"]`).
   */
  holdOpen?(): { readonly caller: string; readonly id: string | number | null } | undefined;
}

/**
 * The options of an extension's request method, `defineExtension(id).method(name, schema, handler, options)`: what
 * a caller must hold to call it. An options argument rather than a chained `.scopes()`, since `.method()` returns the
 * extension, not a builder of the method.
 *
 * @example
 * ```ts
 * import * as v from "valibot";
 * import { defineExtension, type ExtensionMethodOptions } from "@mcplite/sdk";
 * const writer: ExtensionMethodOptions = { scopes: ["ledger:write"] };
 * const ledger = defineExtension("org.example/ledger")
 *   .method("org.example/ledger/post", v.object({ amount: v.number() }), ({ amount }) => ({ amount }), writer);
 * ```
 */
export interface ExtensionMethodOptions {
  /**
   * The OAuth scopes a caller must hold to call the method, all of them (RFC 6749 §3.3 scope tokens), as a tool's
   * `.scopes()`: a caller without them is refused before its params are read, with the same error and step-up
   * challenge (403 `insufficient_scope` over HTTP).
   */
  readonly scopes?: readonly string[];
}

/**
 * An extension (SEP-2133): an immutable value, each builder method returning a new one. Serve it with
 * `server.extension(extension)`.
 *
 * @typeParam Id The extension's identifier, `{vendor-prefix}/{name}`; its method names start with `${Id}/`,
 *   but for those an official MCP extension's specification gives (`skills/list` for `io.modelcontextprotocol/skills`).
 */
export interface Extension<Id extends string = string> {
  /** The identifier, `{vendor-prefix}/{name}` (SEP-2133), e.g. `org.example/ledger`. */
  readonly id: Id;
  /** What the server advertises for it: `capabilities.extensions[id]` (`{}`, no settings, by default). */
  readonly advertised: Readonly<Record<string, unknown>>;
  /** Its request methods, by name: the params' compiled schema, the scopes a caller must hold, and the handler. */
  readonly methods: ReadonlyMap<
    string,
    {
      readonly params: CompiledSchema;
      /** The OAuth scopes a caller must hold to call it (`.method(…, { scopes })`). */
      readonly scopes?: readonly string[];
      readonly handle: (
        params: unknown,
        ctx: ExtensionContext,
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
        ctx: ExtensionContext,
      ) => void | Promise<void>;
    }
  >;
  /** Its message middleware, in the order added: they run after those of the extensions served before it. */
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
   * directions, on every transport that carries them (MCP over HTTP, stdio and a WebSocket). Each extension's run in
   * the order the extensions were served (`server.extension()`), each extension's in the order added; an application's
   * own go on an anonymous extension (`defineExtension()`), served first to run first.
   *
   * @param middleware The middleware: `(message, info, next)`, as `MessageMiddleware` (`@mcplite/sdk/types`) says.
   * @returns A new extension with it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer, defineExtension } from "../../../mod.ts";
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
   * @param name The method's name: `${id}/` and a verb (`org.example/ledger/get`). An official MCP extension
   *   (`io.modelcontextprotocol/…`) may also take the names its specification gives (`skills/list`). Never
   *   one of MCP's core methods; one another served extension claims is refused when the server serves both.
   * @param schema The params' schema: a valibot object schema, a Standard Schema or a JSON Schema object.
   * @param handler Answers with the result, a JSON object. `ctx.client` is what the client declared;
   *   `ctx.signal` aborts when the client goes away; `ctx.notify(method, params)` sends the client a
   *   notification on this request's own stream (MCP 2026-07-28 allows only request-related ones: the
   *   request's SSE answer; on the 2025 revisions its SSE stream, stdio or the WebSocket), dropped where
   *   nothing streams (a client that does not accept SSE, MCP-lite, gRPC); `ctx.request(method, params)`
   *   asks the client and resolves with its result, on the 2025 revisions only (MCP 2026-07-28 has no
   *   server→client requests; it rejects there with `unsupported`, as where nothing streams). `ctx.auth` is the
   *   caller, as a tool's.
   * @param options `scopes`: the OAuth scopes a caller must hold, as a tool's `.scopes()` (MCP 2025-11-25,
   *   Authorization, Scope Challenge Handling): a caller without them is refused before its params are read, with the
   *   error and challenge a tool's call gets (403 `insufficient_scope` naming them on HTTP, `PERMISSION_DENIED` on
   *   gRPC; 401 without a caller), on every wire that serves the method.
   * @returns A new extension with the method.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { defineExtension } from "../../../mod.ts";
   * const ledger = defineExtension("org.example/ledger").method(
   *   "org.example/ledger/post",
   *   v.object({ account: v.string(), amount: v.number() }),
   *   ({ account, amount }, ctx) => ({ account, amount, by: ctx.auth?.subject ?? null }),
   *   { scopes: ["ledger:write"] },
   * );
   * assert.deepEqual(ledger.methods.get("org.example/ledger/post")?.scopes, ["ledger:write"]);
   * ```
   */
  method<S extends SchemaInput>(
    name: Id extends `io.modelcontextprotocol/${string}` ? string : `${Id}/${string}`,
    schema: S & NotAShape<S>,
    handler: (
      params: InferSchemaOutput<S>,
      ctx: ExtensionContext,
    ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>,
    options?: ExtensionMethodOptions,
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
      ctx: ExtensionContext,
    ) => void | Promise<void>,
  ): Extension<Id>;
}

/** One file of a skill. */
export interface SkillFile {
  /** Its path inside the skill, `/`-separated (`SKILL.md`, `references/FORMS.md`). */
  readonly path: string;
  /** Its URI: `skill://<name>/<path>`. */
  readonly uri: string;
  /** Its size, in bytes. */
  readonly size: number;
  /** `sha256:` and the hex SHA-256 of its bytes. */
  readonly digest: string;
  /** Its media type (`text/markdown` for `SKILL.md`). */
  readonly mimeType: string;
  /** Whether it is served as text (valid UTF-8) rather than as a base64 blob. */
  readonly text: boolean;
  /** Reads its bytes (from memory, or from disk on each read, so large files are not held). */
  read(): Promise<Uint8Array>;
}

/** A skill. */
export interface Skill {
  /** What the definition brings to the wires that serve it (e.g. the MCP methods that serve resources), read by each binding; opaque to you. */
  readonly features?: readonly Readonly<Record<string, unknown>>[];
  /** The extensions serving it needs (the Skills extension, SEP-2640), served with it. */
  readonly extensions?: readonly Extension[];
  /** Its name (the frontmatter's `name`, and the final segment of its URI path). */
  readonly name: string;
  /** Its URI: `skill://<name>/SKILL.md`. */
  readonly uri: string;
  /** The parsed YAML frontmatter of its `SKILL.md`, as it is. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Its files, `SKILL.md` first. */
  readonly files: readonly SkillFile[];
}
