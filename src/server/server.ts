/**
 * `Server`: one long-lived object that serves its tools, resources and prompts on every wire its bindings speak,
 * through one `fetch`. It knows no wire: its bindings mount their routes on it; every call goes through one pipeline.
 *
 * @module
 */
import type { Extension } from "../core/definitions/extension.ts";
import type { EventDefinition } from "../core/definitions/event.ts";
import type { Skill } from "../core/definitions/skill.ts";
import type { Middleware, ToolMiddleware } from "../core/call/middleware.ts";
import type { CallOutcome } from "../core/call/outcome.ts";
import type { AnyPrompt } from "../core/definitions/prompt.ts";
import { Definitions, registryOf } from "../core/definitions/registry.ts";
import type { Runtime } from "../core/instance/runtime.ts";
import type { AnyResource } from "../core/definitions/resource.ts";
import type { NotAShape, SchemaInput } from "../core/schema.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { Route, ServerCore } from "./binding-contract.ts";
import { serverWarning } from "../core/instance/logger.ts";
import { createFetch } from "./fetch.ts";
import type { Edge } from "./edge.ts";
import { assembleGate, type Gate } from "./gate.ts";
import { type EdgeObserving, OBSERVES_EDGE } from "./edge-observer.ts";
import { withHealth } from "./health.ts";
import { registerListenerAttachment } from "./listener.ts";
import {
  type AssembledServerOptions,
  prefixed,
  resolveOptions,
  type ServerOptions,
  type SignalsSupport,
  type ToolSearchSupport,
} from "./server-options.ts";
import { serverRuntime } from "./server-runtime.ts";
import { declareBodyLimit } from "../runtime/body-bound.ts";
import { relayChanges } from "./relay.ts";
import type { CallArguments, ServerCallOptions, ToolMap } from "./server-types.ts";
import { callInProcess, compileConfig } from "./server-types.ts";
import type { skillFileResource as FileResource } from "./skill-files.ts";
import type { GroupOptions, GroupSupport } from "./server-group.ts";
import type { SignalDelivery } from "../jobs/signals.ts";
import { needsSignals } from "../jobs/needs-signals.ts";

export type { CallArguments, GroupOptions, ServerCallOptions, ToolMap };

/**
 * A server: the registry of tools, resources and prompts, the middleware, and the `fetch` that serves
 * every wire of its bindings behind its gate (Host/Origin guard, `auth`, CORS). Nothing is built per
 * request. Create one with `createServer()`. Listeners that do not go through `fetch` (`serveGrpc()`,
 * `serveStdio()`) reach its registry and its gate through `attachListener(server)`
 * (`@mcplite/sdk/binding`).
 *
 * @typeParam TTools The registered tools, by name.
 * @typeParam TEvents The registered events, by name.
 */
// deno-lint-ignore ban-types
export class Server<TTools extends ToolMap = {}, TEvents extends { [name: string]: EventDefinition } = {}> {
  /** The server name. */
  declare readonly name: string;
  /** The server version. */
  declare readonly version: string;
  /**
   * Answers an HTTP request on any wire. Bound, so it can be passed around: `Deno.serve(server.fetch)`,
   * `Bun.serve({ fetch: server.fetch })`, `export default server` (Workers, Deno, Bun). A Worker's
   * `(request, env, ctx)` reach handlers as `ctx.env`, deferred work is handed to `ctx.waitUntil`, and
   * `env.MCPLITE_SECRET` signs tokens when no `secret` option is given; a framework route can pass its
   * own second argument (Hono: `app.all("/mcp/*", mount(server.fetch, (c) => [{ ...c.env, user: c.get("user") }]))`).
   * `ctx` is anything with a Worker's `waitUntil` (Cloudflare Workers, Vercel, Netlify).
   */
  declare readonly fetch: (
    request: Request,
    env?: unknown,
    ctx?: { waitUntil(work: Promise<unknown>): void },
  ) => Promise<Response>;
  /** Phantom type of the registered tools, for the typed client. */
  declare readonly "~tools"?: TTools;
  /** Phantom type of the registered events, for the typed client. */
  declare readonly "~events"?: TEvents;
  /** The prefix of every route (the `basePath` option, no trailing `/`; `""` if none): where an in-process client finds them. */
  declare readonly basePath: string;
  readonly #core: ServerCore;
  readonly #definitions: Definitions;
  readonly #runtime: Runtime;
  readonly #group: GroupSupport;
  readonly #gate: Gate;
  readonly #options: ServerOptions;
  #events: ReturnType<EventDefinition["~serve"]> | undefined;

  /**
   * Creates a server; use `createServer()` instead.
   *
   * @param options The options, with the bindings to serve (none by default here); `createServer()` passes the
   *   capabilities it assembled (long-running work, input rounds, grouping) beside them.
   * @param edge CORS and OAuth, built by `createServer()` from its `cors` and `auth` options (not read here).
   * @throws {TypeError} When the name or version is missing, or two bindings claim one path.
   */
  constructor(options: ServerOptions, edge: Edge = {}) {
    const assembled = options as AssembledServerOptions; // createServer() passes its capabilities beside the options
    const resolved = resolveOptions(options);
    this.#options = options;
    this.#group = assembled.group as unknown as GroupSupport; // what group-support.ts built (or the lite entry's refusal)
    const { runtime, longRunning, budgets, learnSecret } = serverRuntime(options);
    this.#runtime = runtime;
    // A tool that answers with promises brings the `redeem` system tool (MCP-lite spec v0.042 §3.1, §3.6).
    const registry = new (this.#group.registry ?? Definitions)(runtime, longRunning); // one that can mount, to group
    if (edge.check !== undefined) registry.checks.push(edge.check); // the lite entry's refusal of long-running tools
    for (const add of [options.toolSearch, options.codeMode]) (add as ToolSearchSupport | undefined)?.(registry);
    this.#definitions = registry;
    if (options.notifier !== undefined) void relayChanges(registry, options.notifier, runtime.onError);
    this.name = resolved.name;
    this.version = resolved.version;
    const core: ServerCore = { registry, options: resolved };
    this.#core = core;
    const routes = new Map<string, Route>();
    // The bindings' routes, then the signal URLs' (`signals()`), where the server has them.
    for (const binding of [...options.bindings ?? [], options.signals as SignalsSupport | undefined]) {
      if (binding === undefined) continue;
      const mounted = binding(core);
      for (const [own, route] of mounted.routes) {
        const path = prefixed(resolved.basePath, own);
        if (routes.has(path)) throw new TypeError(`two bindings serve ${path}`);
        routes.set(path, route);
      }
      if (mounted.checkTool !== undefined) registry.checks.push(mounted.checkTool);
    }
    // The edge, built once: `fetch` goes through it, and so does every listener (`attachListener()`).
    const gate = assembleGate(options, edge);
    this.#gate = gate;
    registerListenerAttachment(this, { core, gate });
    const fetch = createFetch(routes, gate, learnSecret, edge, { budgets, maxBodyBytes: resolved.maxBodyBytes });
    const carded = edge.card === undefined ? fetch : edge.card(fetch, resolved, routes, gate.guard);
    const healthy = withHealth(carded, resolved, options.health);
    // Serving, the instance takes its share of the jobs of a queue its instances keep in their shared store.
    // Asked once, on the first request: no work of it on the path of every later one.
    let serve = longRunning?.serve;
    this.fetch = serve === undefined ? healthy : (request, ...rest) => {
      if (serve !== undefined) serve(registry), serve = undefined;
      return healthy(request, ...rest);
    };
    this.basePath = resolved.basePath; // own properties in the order declared: name, version, fetch, basePath
    declareBodyLimit(this.fetch, resolved.maxBodyBytes, resolved.bodyTimeoutMs); // for serve()'s listener
  }

  /**
   * Signals a job whose declared work waits, or will wait, for it (`work.waitFor(name)`), from any instance sharing
   * the job's store (and queue): the payload is kept in the job's journal, first come first kept, and the job resumes
   * (on a queue, at once: the queue delivers it now). Needs `createServer({ signals: signals() })`.
   *
   * @param job The job's id (`work.jobId`; a call's `entry`).
   * @param name The signal's name.
   * @param payload Its payload, JSON (checked against the wait's `schema` as the wait takes it).
   * @returns `"taken"`, or why not: `"signalled"` (it had one), `"timed_out"`, `"ended"` (or unknown).
   * @throws {TypeError} Without `signals`, for a payload with no JSON form, or one its schema in `signals({ schemas })`
   *   refuses; a `ProtocolError` `unavailable` while
   *   the store is out of reach.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer, signals } from "../../mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0", signals: signals() });
   * assert.equal(await server.signal("no-such-job", "approved", { ok: true }), "ended");
   * ```
   */
  signal(job: string, name: string, payload?: unknown): Promise<SignalDelivery> {
    const signals = this.#options.signals as unknown as SignalsSupport | undefined;
    return signals?.send(this.#runtime, job, name, payload) ?? needsSignals("server.signal()");
  }

  /**
   * Ends every long-lived stream the server holds open, each with its last frame, so that its client reconnects
   * (elsewhere, or here after a restart) from where it was: `subscriptions/listen` with its result (MCP 2026-07-28,
   * Subscriptions), `events/stream` with its final result (SEP-3415 "Push"; not `notifications/events/terminated`,
   * which tells a client not to come back), any extension request held open (`ctx.holdOpen()`: its `ctx.signal`
   * aborts), a 2025 session's `GET` stream (`sessionStreams()`) closed. Streams opened from then on are ended the same
   * way at once: a server drains once, on its way out (serve a new one to listen again). Requests that end by
   * themselves (calls, lists) are left to finish. `listener.close()` of `serve()` calls it first; with
   * `Deno.serve(server.fetch)` or `Bun.serve`, call it before `shutdown()` or `stop()`: their graceful shutdown waits
   * for requests in flight, and these streams never end by themselves.
   *
   * @returns Resolves once every stream open when it was called has ended (the same promise on every call).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer } from "../../mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0" });
   * const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
   * const listening = await server.fetch(new Request("http://localhost/mcp", {
   *   method: "POST",
   *   headers: {
   *     "content-type": "application/json",
   *     accept: "application/json, text/event-stream",
   *     "mcp-protocol-version": "2026-07-28",
   *     "mcp-method": "subscriptions/listen",
   *   },
   *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta } }),
   * }));
   * await server.drain(); // then shutdown(): Deno.serve's, Bun.serve's stop()
   * // The acknowledgement, then the result that ends the stream (MCP 2026-07-28, Subscriptions).
   * const frames = (await listening.text()).split("\n").filter((line) => line.startsWith("data: "));
   * const last = JSON.parse(frames.at(-1)!.slice(6));
   * assert.equal(last.id, 1);
   * assert.equal(last.result.resultType, "complete");
   * ```
   */
  drain(): Promise<void> {
    return this.#runtime.drain();
  }

  /**
   * Registers a tool. The server's type grows with it, for the typed client.
   *
   * @param tool A tool from `defineTool()`.
   * @returns This server, typed with the new tool.
   * @throws {TypeError} When a tool of that name is registered already.
   */
  tool<T extends AnyTool>(tool: T): Server<TTools & { [K in T["name"]]: T }, TEvents> {
    this.#definitions.check(tool);
    this.#definitions.add(tool);
    if (tool.description === undefined && tool.title === undefined) {
      // MCP-lite spec v0.042 §3.9: every tool has a description; the model picks tools by it.
      serverWarning(
        this.#runtime.logger,
        `mcplite: tool "${tool.name}" has no .describe() (nor .title()): models choose tools by their description`,
      );
    }
    return this as unknown as Server<TTools & { [K in T["name"]]: T }, TEvents>;
  }

  /**
   * Serves another server's tools, prompts, resources, skills and events from this one, as mcp-lite's `.group()` does.
   * With a prefix, tools, prompts and events are namespaced: a tool `clone` of a server grouped as `git` is listed and
   * called as `git.clone` (the separator is an option; `/`, mcp-lite's, is not a valid tool-name character here); an
   * event's subscriptions are kept and raised by the child. Resources and skills keep their URIs. The child's middleware
   * (`use()`, `useTool()`) keeps running around its own definitions only, inside this server's; what is registered on
   * (or removed from) the child later shows up here, with `list_changed`. Every wire this server speaks serves them.
   *
   * @param prefix The namespace (omit it to keep the child's names).
   * @param child The server to group.
   * @param options The separator (default `.`), resource clashes, transforms, the resources' prefix: {@link GroupOptions}.
   * @returns This server, typed with the child's tools and events under their new names.
   * @throws {TypeError} When a produced name is invalid or taken here (nothing is registered), or `child` is this.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineTool } from "../../mod.ts";
   * const git = createServer({ name: "git", version: "1.0.0" })
   *   .tool(defineTool("clone").input(v.object({ url: v.string() })).handle(({ url }) => `cloned ${url}`));
   * const app = createServer({ name: "app", version: "1.0.0" }).group("git", git);
   * assert.deepEqual(app.tools.map((t) => t.name), ["git.clone"]);
   * const outcome = await app.call("git.clone", { url: "https://example.com/r.git" });
   * assert.equal(outcome.kind, "answer");
   * ```
   */
  group<P extends string, C extends ToolMap, E extends Record<string, EventDefinition>, S extends string = ".">(
    prefix: P,
    child: Server<C, E>,
    options?: GroupOptions<S>,
  ): Server<
    TTools & { [K in keyof C & string as `${P}${S}${K}`]: C[K] },
    TEvents & { [K in keyof E & string as `${P}${S}${K}`]: E[K] }
  >;
  /**
   * Serves another server's tools, prompts, resources, skills and events from this one under their own names.
   *
   * @param child The server to group.
   * @param options As with a prefix, but for the separator.
   * @returns This server, typed with the child's tools and events.
   * @throws {TypeError} When one of its names is taken here already (nothing is registered then).
   */
  group<C extends ToolMap, E extends Record<string, EventDefinition>>(
    child: Server<C, E>,
    options?: Omit<GroupOptions, "separator">,
  ): Server<TTools & C, TEvents & E>;
  group(
    prefixOrChild: string | Server<ToolMap>,
    childOrOptions?: Server<ToolMap> | GroupOptions<string>,
    options: GroupOptions<string> = {},
  ): unknown {
    const [prefix, grouped, given] = typeof prefixOrChild === "string"
      ? [prefixOrChild, childOrOptions, options]
      : [undefined, prefixOrChild, (childOrOptions ?? {}) as GroupOptions<string>];
    if (!(grouped instanceof Server)) throw new TypeError("server.group() needs a server created with createServer()");
    if (grouped === (this as unknown)) throw new TypeError("server.group(): a server cannot group itself");
    this.#group(this.#definitions, grouped.#definitions, prefix, given); // the lite entry's refuses, naming the fix
    return this;
  }

  /**
   * Removes a tool at run time.
   *
   * @param name The tool name.
   * @returns Whether a tool was removed.
   */
  removeTool(name: string): boolean {
    return this.#definitions.remove(name);
  }

  /**
   * Registers a resource (static URI) or a resource template, served on MCP.
   *
   * @param resource A resource from `defineResource()`.
   * @returns This server.
   * @throws {TypeError} When one with that URI or template is registered already.
   */
  resource(resource: AnyResource): this {
    this.#definitions.addResource(resource);
    return this;
  }

  /**
   * Serves an Agent Skill (SEP-2640): listed by `skills/list`, described by `skills/get`, its files read with
   * `resources/read` at `skill://<name>/<path>` (resources its `defineSkill()` feature makes, `SKILL.md` as
   * `text/markdown`, binary files as blobs); the server then declares the `io.modelcontextprotocol/skills` extension.
   *
   * @param skill A skill from `defineSkill()` or `skillFromDirectory()` (`@mcplite/sdk/skills`).
   * @returns This server.
   * @throws {TypeError} When a skill of that name is served already.
   */
  skill(skill: Skill): this {
    const registry = this.#definitions;
    registry.addSkill(skill);
    const asResource = skill.features?.find((f) => f.fileResource)?.fileResource as typeof FileResource | undefined;
    for (const file of skill.files) if (asResource) registry.addResource(asResource(skill, file));
    return this;
  }

  /**
   * Serves an MCP extension (SEP-2133) from `defineExtension()`: its request methods, on every revision, and
   * its settings in `capabilities.extensions` (`server/discover`, `initialize`); and its message middleware
   * (`.intercept()`), after those of the extensions served before it. An anonymous extension
   * (`defineExtension()` with no identifier) brings middleware only.
   *
   * @param extension The extension.
   * @returns This server.
   * @throws {TypeError} When an extension of that identifier, or one of its methods, is served already (or the
   *   same value is).
   */
  extension(extension: Extension): this {
    this.#definitions.addExtension(extension);
    return this;
  }

  /**
   * Serves an event from `defineEvent()` (`@mcplite/sdk/events`; SEP-3415, ChatGPT's MCP Events); see `emit()`.
   *
   * @param definition The event; one whose name is served already throws a `TypeError`.
   * @returns This server, typed with the event.
   */
  event<E extends EventDefinition>(definition: E): Server<TTools, TEvents & { [K in E["name"]]: E }> {
    this.#events = definition["~serve"](this, this.#options, this.#events);
    return this as never;
  }

  /**
   * Raises an event: its payload checked, then delivered to each live subscription its `match` accepts.
   *
   * @param name The event's name.
   * @param payload The payload, typed by the event's payload schema.
   * @param options `id`: the occurrence's id, for an idempotent emit (default `evt_` and random).
   * @returns The occurrence's id and how many subscriptions it was handed to.
   * @throws {TypeError} For an unknown event or refused payload ({@link RangeError} over 256 KiB); a queue refusing it.
   */
  emit<N extends keyof TEvents & string>(
    name: N,
    payload: NonNullable<TEvents[N]["~types"]>["payload"],
    options?: { readonly id?: string },
  ): Promise<{ readonly eventId: string; readonly deliveries: number }> {
    return this.#events!.emit(name, payload, options);
  }

  /**
   * Removes a resource or template at run time (MCP `list_changed` listeners hear of it).
   *
   * @param uri The URI or template it was registered with.
   * @returns Whether one was removed.
   */
  removeResource(uri: string): boolean {
    return this.#definitions.removeResource(uri);
  }

  /**
   * Tells MCP clients subscribed to a resource (`subscriptions/listen`) that its contents changed.
   *
   * @param uri The URI whose contents changed.
   */
  resourceUpdated(uri: string): void {
    this.#definitions.resourceUpdated(uri);
  }

  /**
   * Registers a prompt, served on MCP.
   *
   * @param prompt A prompt from `definePrompt()`.
   * @returns This server.
   * @throws {TypeError} When a prompt of that name is registered already.
   */
  prompt(prompt: AnyPrompt): this {
    this.#definitions.addPrompt(prompt);
    return this;
  }

  /**
   * Removes a prompt at run time (MCP `list_changed` listeners hear of it).
   *
   * @param name The prompt name.
   * @returns Whether a prompt was removed.
   */
  removePrompt(name: string): boolean {
    return this.#definitions.removePrompt(name);
  }

  /**
   * Declares the configuration every tool shares: settings supplied by the environment that the model
   * never generates. Values come from the `settings` option (on Webtools, also from the caller's
   * `config`); handlers read them as `ctx.config`, merged with their tool's own `.config()`.
   *
   * @param schema A valibot object schema, a Standard Schema with JSON Schema, or a JSON Schema object.
   * @returns This server.
   * @throws {TypeError} When the schema cannot be expressed as a JSON Schema object, or is a raw shape
   *   (`{ region: v.string() }`: wrap it in `v.object()`).
   *
   * @example
   * ```ts
   * import * as v from "valibot";
   * import { createServer } from "../../mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0", settings: { region: "eu" } })
   *   .config(v.object({ region: v.picklist(["eu", "us"]) }));
   * ```
   */
  config<S extends SchemaInput>(schema: S & NotAShape<S>): this {
    registryOf(this.#core).runtime.setConfig(compileConfig(schema));
    return this;
  }

  /**
   * Adds a request middleware. Request middleware run in the order added, around **every method on
   * every wire** (lists, `tools/call`, `resources/read`, `prompts/get`, `completion/complete`,
   * `skills/*`, `tasks/*`, `subscriptions/listen`, `initialize`, `server/discover`; gRPC `CallTool` and
   * `GetTools`; Webtools' metadata and execution; stdio): each sees `call.method`, `call.name` (the tool
   * or prompt name, the resource URI), `call.params` and `call.ctx`, may set `call.ctx.auth`, and may
   * refuse by throwing a `ProtocolError` (`Unauthenticated`: 401 on HTTP, `UNAUTHENTICATED` on gRPC).
   * For what wraps tool handlers only, see {@link Server.useTool}.
   *
   * @param middleware The middleware.
   * @returns This server.
   *
   * @example
   * ```ts
   * import { createServer } from "../../mod.ts";
   * import { ErrorCode, ProtocolError } from "../errors/mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0" }).use(async (call, next) => {
   *   const token = call.ctx.meta.headers.get("authorization");
   *   if (token !== "Bearer secret") throw new ProtocolError(ErrorCode.Unauthenticated, `bad token for ${call.method}`);
   *   call.ctx.auth = { subject: "demo-user" };
   *   return await next();
   * });
   * ```
   */
  use(middleware: Middleware): this {
    registryOf(this.#core).runtime.use(middleware);
    // Telemetry (`otel()`) observes the requests the edge refuses too, which no middleware sees.
    (middleware as EdgeObserving)[OBSERVES_EDGE]?.(this.#gate);
    return this;
  }

  /**
   * Adds a tool middleware. Tool middleware run in the order added, around every tool's handler (inside
   * the request middleware of {@link Server.use}): each sees the call's tool name, its arguments (which
   * it may rewrite) and the handler's context, and may answer with an outcome of its own; `next()`
   * resolves with the call's outcome once any stream has been drained.
   *
   * @param middleware The middleware.
   * @returns This server.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineTool } from "../../mod.ts";
   * const timings: string[] = [];
   * const server = createServer({ name: "demo", version: "1.0.0" })
   *   .tool(defineTool("echo").input(v.object({ text: v.string() })).handle(({ text }) => text))
   *   .useTool(async (call, next) => {
   *     const outcome = await next();
   *     timings.push(`${call.name}: ${outcome.kind}`);
   *     return outcome;
   *   });
   * await server.call("echo", { text: "hi" });
   * assert.deepEqual(timings, ["echo: answer"]);
   * ```
   */
  useTool(middleware: ToolMiddleware): this {
    registryOf(this.#core).runtime.useTool(middleware);
    return this;
  }

  /** The registered tools, in registration order. */
  get tools(): AnyTool[] {
    return [...registryOf(this.#core).tools];
  }

  /**
   * Calls a tool in process, through the same pipeline as every wire (middleware, validation, output
   * check), without HTTP. It runs one call: a long-running tool answers `promise`, redeemed with
   * `call("redeem", { promise: outcome.token })`; a tool that asks the client answers `input_required`,
   * answered by calling again with the same arguments plus `inputResponses` and the `requestState`.
   * To have promises redeemed and questions answered for you, use the in-process client:
   * `createClient(server)` from `@mcplite/sdk/client`.
   *
   * @param name The tool name (or `redeem`).
   * @param args The arguments, typed by the tool's input schema.
   * @param options A signal, a partial callback, headers, the caller, and the answers to an input round.
   * @returns The outcome: `answer`, `failure`, `promise` or `input_required`.
   * @throws {ProtocolError} For an unknown tool, invalid arguments, an invalid `requestState`, or a
   *   result that does not match the tool's output schema (masked as `internal`).
   */
  call<N extends (keyof TTools & string) | "redeem">(
    name: N,
    args: CallArguments<TTools>[N],
    options: ServerCallOptions = {},
  ): Promise<CallOutcome> {
    const registry = registryOf(this.#core);
    registry.longRunning?.serve(registry);
    return callInProcess(registry, name, args, options);
  }
}
