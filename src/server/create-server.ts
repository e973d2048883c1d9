/**
 * `createServer()`: one long-lived object that serves its tools on every wire through one `fetch`.
 *
 * @module
 */
import { createMcpRoutes } from "../bindings/mcp/handler.ts";
import { createMcpliteRoutes } from "../bindings/mcplite/handler.ts";
import { CallContext, type CallMeta, type SignalSource } from "../core/call-context.ts";
import { dispatch } from "../core/dispatch.ts";
import { ProtocolError } from "../core/error.ts";
import type { ToolCall } from "../core/middleware.ts";
import { Continuations } from "../core/continuations.ts";
import { InputRound } from "../core/input-round.ts";
import type { CallOutcome, FinalOutcome } from "../core/outcome.ts";
import { type Middleware, Registry } from "../core/registry.ts";
import { drainStream } from "../core/stream.ts";
import { errorMessage } from "../internal/jsonrpc.ts";
import { pathOf } from "../internal/url.ts";
import { createRedeemTool, REDEEM_TOOL } from "../tool/redeem-tool.ts";
import type { AnyTool } from "../tool/tool-def.ts";
import type { AnyPrompt } from "../prompt/prompt-def.ts";
import type { AnyResource } from "../resource/resource-def.ts";
import { compileSchema, type SchemaInput } from "../tool/schema.ts";
import { driveCall, type InputHandler } from "./drive-call.ts";
import { createRequestGuard, type RequestGuard } from "./guard.ts";
import { resolveOptions, type ServerOptions } from "./options.ts";
import { type Binding, JSON_HEADERS, type RouteHandler, type Routes, type ServerCore } from "./server-core.ts";

/** The tools a server carries, by name; the typed client reads this from `typeof server`. */
export type ToolMap = { [name: string]: AnyTool };

/** Options of {@link Server.call} and {@link Server.invoke}. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Receives partials of a streaming tool. */
  onPartial?: (partial: unknown) => void;
  /** Headers the handler sees as `ctx.meta.headers`. */
  headers?: HeadersInit;
  /** `invoke()`: the answers to an `input_required` outcome's requests, by key. */
  inputResponses?: Record<string, unknown>;
  /** `invoke()`: the `requestState` of that outcome, echoed as is. */
  requestState?: string;
  /** `call()`: answers input rounds (elicitation, sampling, roots) by key. */
  onInput?: InputHandler;
}

/** A signal source whose signal, built on first use by `CallContext`, never aborts. */
const NEVER_ABORTED: SignalSource = {
  get signal(): AbortSignal {
    return new AbortController().signal;
  },
};

const NOT_FOUND_BODY = errorMessage(null, -32601, "Not found: no MCP-lite or MCP endpoint at this path");

/**
 * A server: the tool registry, the middleware and the `fetch` handler that serves every wire.
 * Nothing is built per request.
 *
 * @typeParam TTools The registered tools, by name.
 */
// deno-lint-ignore ban-types
export class Server<TTools extends ToolMap = {}> {
  /** The server name. */
  readonly name: string;
  /** The server version. */
  readonly version: string;
  /**
   * Answers an HTTP request on any wire. Bound, so it can be passed around:
   * `Deno.serve(server.fetch)`, `Bun.serve({ fetch: server.fetch })`, `export default server`.
   */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Phantom type of the registered tools, for the typed client. */
  declare readonly "~tools"?: TTools;
  readonly #core: ServerCore;
  readonly #routes: Routes = new Map();

  /**
   * Creates a server; use {@link createServer} instead.
   *
   * @param options The options.
   */
  constructor(options: ServerOptions) {
    const resolved = resolveOptions(options);
    const registry = new Registry();
    registry.onError = options.onError;
    registry.continuations = new Continuations({ secret: options.secret, ...options.tokens, results: options.resultStore });
    if (options.settings !== undefined) registry.settings = Object.freeze({ ...options.settings });
    this.name = resolved.name;
    this.version = resolved.version;
    this.#core = { registry, options: resolved };
    const mcpLitePath = resolved.mcpLitePath, mcpPath = resolved.mcpPath;
    if (mcpLitePath !== undefined) this.mount((core) => createMcpliteRoutes(core, mcpLitePath));
    if (mcpPath !== undefined) this.mount((core) => createMcpRoutes(core, mcpPath));
    this.fetch = createFetch(this.#routes, createRequestGuard(options.allowedHosts, options.allowedOrigins));
  }

  /**
   * Mounts another binding (gRPC/Connect, Webtools) on this server's `fetch`. Bindings live in their
   * own exports, so a server that does not mount one never loads its code.
   *
   * @param binding The binding.
   * @returns This server.
   * @throws {TypeError} When a path is mounted already.
   */
  mount(binding: Binding): this {
    for (const [path, handler] of binding(this.#core)) {
      if (this.#routes.has(path)) throw new TypeError(`a binding is mounted at ${path} already`);
      this.#routes.set(path, handler);
    }
    return this;
  }

  /**
   * Registers a tool. The server's type grows with it, for the typed client.
   *
   * @param tool A tool from `defineTool()`.
   * @returns This server, typed with the new tool.
   * @throws {TypeError} When a tool of that name is registered already.
   */
  tool<T extends AnyTool>(tool: T): Server<TTools & { [K in T["name"]]: T }> {
    const registry = this.#core.registry;
    registry.add(tool);
    // A tool that answers with promises needs the `redeem` system tool (seed §3.1, §3.6).
    if (tool.longRunning !== undefined && registry.get(REDEEM_TOOL) === undefined) registry.add(createRedeemTool(registry));
    return this as unknown as Server<TTools & { [K in T["name"]]: T }>;
  }

  /**
   * Removes a tool at run time.
   *
   * @param name The tool name.
   * @returns Whether a tool was removed.
   */
  removeTool(name: string): boolean {
    return this.#core.registry.remove(name);
  }

  /**
   * Registers a resource (static URI) or a resource template, served on MCP.
   *
   * @param resource A resource from `defineResource()`.
   * @returns This server.
   * @throws {TypeError} When one with that URI or template is registered already.
   */
  resource(resource: AnyResource): this {
    this.#core.registry.addResource(resource);
    return this;
  }

  /**
   * Removes a resource or template at run time (MCP `list_changed` listeners hear of it).
   *
   * @param uri The URI or template it was registered with.
   * @returns Whether one was removed.
   */
  removeResource(uri: string): boolean {
    return this.#core.registry.removeResource(uri);
  }

  /**
   * Tells MCP clients subscribed to a resource (`subscriptions/listen`) that its contents changed.
   *
   * @param uri The URI whose contents changed.
   */
  resourceUpdated(uri: string): void {
    this.#core.registry.resourceUpdated(uri);
  }

  /**
   * Registers a prompt, served on MCP.
   *
   * @param prompt A prompt from `definePrompt()`.
   * @returns This server.
   * @throws {TypeError} When a prompt of that name is registered already.
   */
  prompt(prompt: AnyPrompt): this {
    this.#core.registry.addPrompt(prompt);
    return this;
  }

  /**
   * Removes a prompt at run time (MCP `list_changed` listeners hear of it).
   *
   * @param name The prompt name.
   * @returns Whether a prompt was removed.
   */
  removePrompt(name: string): boolean {
    return this.#core.registry.removePrompt(name);
  }

  /**
   * Declares the configuration every tool shares: settings supplied by the environment that the model
   * never generates. Values come from the `settings` option (on Webtools, also from the caller's
   * `config`); handlers read them as `ctx.config`, merged with their tool's own `.config()`.
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns This server.
   * @throws {TypeError} When the schema cannot be expressed as a JSON Schema object.
   *
   * @example
   * ```ts
   * import * as v from "valibot";
   * import { createServer } from "../../mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0", settings: { region: "eu" } })
   *   .config(v.object({ region: v.picklist(["eu", "us"]) }));
   * ```
   */
  config(schema: SchemaInput): this {
    const compiled = compileSchema(schema, "server config");
    if (compiled.jsonSchema.type !== "object") {
      throw new TypeError(`server config: the schema must describe an object (type "object")`);
    }
    this.#core.registry.setConfig(compiled);
    return this;
  }

  /**
   * Adds a middleware. Middleware run in the order added, around every tool call on every wire; each
   * sees the decoded call and may short-circuit (return an outcome or throw a `ProtocolError`).
   *
   * @param middleware The middleware.
   * @returns This server.
   *
   * @example
   * ```ts
   * import { createServer, ErrorCode, ProtocolError } from "../../mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0" }).use(async (call, next) => {
   *   const token = call.ctx.meta.headers.get("authorization");
   *   if (token !== "Bearer secret") throw new ProtocolError(ErrorCode.Unauthenticated, "bad token");
   *   call.ctx.auth = { subject: "demo-user" };
   *   return await next();
   * });
   * ```
   */
  use(middleware: Middleware): this {
    this.#core.registry.middleware.push(middleware);
    return this;
  }

  /** The registered tools, in registration order. */
  get tools(): AnyTool[] {
    return [...this.#core.registry.tools];
  }

  /**
   * Calls a tool in process, through the middleware and validation like any wire, without HTTP, and
   * drives it to its end as a client would: a promise is redeemed after its `retryAfterMs`; an input
   * round is answered through `options.onInput`.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, a partial callback, headers, and the input handler.
   * @returns The final outcome (`answer` or `failure`) with its result.
   * @throws {ProtocolError} For an unknown tool or invalid arguments, or an input round without `onInput`.
   */
  call(name: string, args: unknown, options: CallOptions = {}): Promise<FinalOutcome> {
    return driveCall((n, a, round) => this.invoke(n, a, round === undefined ? options : { ...options, ...round }), name, args, options);
  }

  /**
   * Runs one call in process and returns its outcome as the core gives it: `answer` or `failure`, a
   * `promise` whose token `invoke("redeem", { promise })` redeems, or `input_required`, answered by
   * calling again with the same arguments plus `inputResponses` and the `requestState`.
   *
   * @param name The tool name.
   * @param args The arguments.
   * @param options A signal, a partial callback, headers, and the answers to an input round.
   * @returns The outcome.
   * @throws {ProtocolError} For an unknown tool, invalid arguments or an invalid `requestState`.
   */
  async invoke(name: string, args: unknown, options: CallOptions = {}): Promise<CallOutcome> {
    const meta: CallMeta = { wire: "in-process", headers: new Headers(options.headers) };
    // Without a caller's signal, one that never aborts is made only if the handler asks for it.
    const signal = options.signal ?? NEVER_ABORTED;
    const round = new InputRound(options.inputResponses, options.requestState);
    const call: ToolCall = { name, arguments: args, ctx: new CallContext(name, signal, meta, round), round };
    const outcome = await dispatch(this.#core.registry, call);
    return outcome.kind === "stream"
      ? drainStream(this.#core.registry, call, outcome, options.onPartial ?? (() => {}))
      : outcome;
  }
}

function createFetch(routes: Routes, guard: RequestGuard): (request: Request) => Promise<Response> {
  return function fetch(request: Request): Promise<Response> {
    const url = request.url;
    try {
      guard(request, url);
    } catch (error) {
      const message = error instanceof ProtocolError ? error.message : "Forbidden";
      return Promise.resolve(new Response(errorMessage(null, -32000, message), { status: 403, headers: JSON_HEADERS }));
    }
    const path = pathOf(url);
    const handler = routes.get(path) ?? prefixRoute(routes, path);
    if (handler === undefined) {
      return Promise.resolve(new Response(NOT_FOUND_BODY, { status: 404, headers: JSON_HEADERS }));
    }
    return handler(request);
  };
}

function prefixRoute(routes: Routes, path: string): RouteHandler | undefined {
  for (const [pattern, handler] of routes) {
    if (pattern.endsWith("/*") && path.startsWith(pattern.slice(0, -1))) return handler;
  }
  return undefined;
}

/**
 * Creates a server. Register tools with `.tool()`, middleware with `.use()`, then serve `server.fetch`.
 *
 * @param options The name, version and settings.
 * @returns The server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 *
 * const add = defineTool("add")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add);
 *
 * const response = await server.fetch(new Request("http://localhost/mcp-lite/v1/calltools", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }),
 * }));
 * const { result } = await response.json();
 * assert.deepEqual(result.structuredContent, { sum: 3 });
 * ```
 */
// deno-lint-ignore ban-types
export function createServer(options: ServerOptions): Server<{}> {
  return new Server(options);
}
