/**
 * The options of `createServer()`, and their resolved form that bindings read.
 *
 * @module
 */
import { type ProtocolVersion, resolveProtocolVersions } from "./protocol-versions.ts";
import type { ServerAuth } from "./auth.ts";
import type { ErrorReporter } from "../core/instance/runtime.ts";
import type { ServerLogger } from "../core/instance/logger.ts";
import type { Notifier } from "../core/instance/notifier.ts";
import type { WorkQueue } from "../jobs/work-queue.ts";
import type { ResultStore } from "../jobs/result-store.ts";
import type { JournalStore } from "../jobs/journal-store.ts";
import type { ContinuationsOptions } from "../jobs/continuations.ts";
import type { EventsOptions } from "../core/definitions/event.ts";
import type { Tokens, TokensOptions } from "../core/instance/tokens.ts";
import type { Capability } from "./server-capability.ts";
import type { Binding, MountedBinding, ResolvedOptions, ServerCore } from "./binding-contract.ts";
import type { Runtime } from "../core/instance/runtime.ts";
import type { SignalDelivery } from "../jobs/signals.ts";
import { PUSH_MS } from "../core/call/follow-options.ts";
import type { Limits } from "../core/instance/budgets.ts";
import type { Definitions, LongRunning } from "../core/definitions/registry.ts";
import type { ServerCardOptions } from "./server-card.ts";
import { checkIcons, type Icon } from "../core/definitions/icon.ts";

/** Tool search support: installs the search on the server's definitions (`toolSearch`). */
export type ToolSearchSupport = (registry: Definitions) => void;

/** Signal support (`signals`): a binding that serves the signal URLs, and the sending of signals (`server.signal()`). */
export interface SignalsSupport {
  /** Mounts the signal route on a server and gives its work `waitFor()` and `signalUrl()`. */
  (core: ServerCore): MountedBinding;
  /** Signals a job of the server whose runtime this is. */
  send(runtime: Runtime, job: string, name: string, payload: unknown): Promise<SignalDelivery>;
}

/** Long-running support: builds the engine and what the wires call from the token, store and lease options (`longRunning`). */
export type LongRunningSupport = (options: ContinuationsOptions) => LongRunning;

/** Input-round support: makes the server's tokens from its token options (`inputRounds`). */
export type InputRoundsSupport = (options: TokensOptions) => Tokens;

/** Options of `createServer()`. */
export interface ServerOptions {
  /** The server name, sent as `serverInfo.name`. */
  name: string;
  /** The server version, sent as `serverInfo.version` and MCP-lite's `server_version`. */
  version: string;
  /** A human-readable title. */
  title?: string;
  /**
   * What the server does, in a sentence: sent in its info on MCP 2026-07-28 (`server/discover`), and the
   * `description` of its server card and of `mcplite server-json`.
   */
  description?: string;
  /**
   * The icons a client may show for the server (MCP 2025-11-25, `Icon`; SEP-973): in `serverInfo` on
   * every MCP revision, the server card and the OpenAPI document's `info.x-logo`. Checked here: `https:`
   * URLs or image `data:` URIs (`http:` only on localhost).
   */
  icons?: readonly Icon[];
  /** The server's home page, sent as `serverInfo.websiteUrl` and in the server card. */
  websiteUrl?: string;
  /**
   * The server card (SEP-2127, draft), served by `createServer()` of `@mcplite/sdk` at
   * `/.well-known/mcp/server-card.json` and beside each MCP endpoint (`/mcp/server-card`), with a strong
   * `ETag`, CORS for any origin and an hour of caching: what the server is, where its MCP endpoints are
   * and how to authenticate there, for a client to read before it connects. `false` serves none; an
   * object completes what the other options already tell (`name`, `version`, `title`, `description`,
   * `icons`, `websiteUrl`, the MCP endpoints, `auth`).
   *
   * @example
   * ```ts
   * import { createServer } from "../../mod.ts";
   * const server = createServer({
   *   name: "weather",
   *   version: "1.2.0",
   *   description: "Forecasts and alerts",
   *   serverCard: { name: "com.example/weather", origin: "https://weather.example.com" },
   * });
   * ```
   */
  serverCard?: false | ServerCardOptions;
  /** Instructions for the model on how to use this server (MCP `instructions`). */
  instructions?: string;
  /**
   * The wires the server speaks, each at its own paths on the one `fetch` (default: MCP-lite at
   * `/mcp-lite/v1` and MCP at `/mcp`, i.e. `[mcpLiteBinding(), mcpBinding()]`). Add `webtoolsBinding()`
   * (`@mcplite/sdk/webtools`) or `grpcBinding()` (`@mcplite/sdk/grpc`), or leave one out.
   */
  bindings?: readonly Binding[];
  /**
   * A prefix for every route of every binding, e.g. `/api`: MCP at `/api/mcp`, MCP-lite at
   * `/api/mcp-lite/v1/…`, Webtools at `/api/webtools`, Connect at `/api/mcplite.MCPLite/…`. Not applied
   * to `serveGrpc()` (gRPC over HTTP/2 addresses methods by name only) nor to the root OAuth metadata.
   */
  basePath?: string;
  /**
   * Lets browser pages on other origins call the server (CORS, opt-in): `cors({ origins })`. Preflights are
   * answered and answers marked readable by the listed origins, which the Origin check then accepts too.
   */
  cors?: Capability<"cors">;
  /**
   * The server's budgets across requests, sized by default for a 2-core machine with 24 GB: the bytes
   * of request bodies being read at once (16 MiB), the calls running (512), the calls held open while
   * deferred work is followed (256), the deferred jobs (256), and each caller's share of them (half
   * of the bytes, three quarters of the calls, a quarter of the others). Past one a request is refused before its body is read: 503 with `Retry-After` for the
   * instance, 429 with `Retry-After` for the caller (`RESOURCE_EXHAUSTED` on gRPC). See `Limits`, and
   * the limits guide for every other bound.
   */
  limits?: Limits;
  /** The largest request body accepted, in bytes (default 4 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** The deepest JSON nesting accepted (default 64); deeper bodies get a parse error. */
  maxJsonDepth?: number;
  /**
   * The longest a request body may take to arrive, in milliseconds (default 30 000; 0: no limit). A
   * slower sender (one that trickles bytes to hold a handler) gets 408 and its body is abandoned. Under
   * `serve()` on Node (and with `httpServer: "node:http"` on Deno and Bun) a request's head must arrive
   * within it too.
   */
  bodyTimeoutMs?: number;
  /** How often SSE streams send a keep-alive, in milliseconds (default 15 000; 0 disables). */
  heartbeatMs?: number;
  /**
   * How long a call that answered "not done yet" is held open while the server follows its work, in
   * milliseconds (default 30 000; 0: the promise is answered at once): a streamed MCP-lite call (SSE,
   * stdio, WebSocket, gRPC `CallToolStream`) pushes the work's progress and then its result (MCP-lite
   * spec v0.042 §5.3, server-pushed updates); an MCP call from a client without tasks waits for the
   * result. `mcpBinding({ holdMs })`, `mcpLiteBinding({ holdMs })` and `grpcBinding({ holdMs })` override it for
   * their wire, on every carrier of it (HTTP, SSE, stdio, WebSocket).
   */
  holdMs?: number;
  /**
   * Host names the server answers to (DNS-rebinding protection). Defaults to the loopback names
   * (`localhost`, `127.0.0.1`, `::1`), which is right for a local server, except on a deployed
   * Cloudflare Worker, where Cloudflare routes only the Worker's own host names to it and any is
   * answered (`wrangler dev` on this machine keeps the loopback names). A server deployed elsewhere
   * lists its public host names, or `"*"` to accept any (only behind a proxy that checks `Host`). A
   * list is checked on every platform, Workers included.
   */
  allowedHosts?: string[] | "*";
  /**
   * Origins (`scheme://host[:port]`) whose browser requests are accepted. Requests without `Origin`
   * (servers, CLIs) are always accepted; by default, browser origins on an allowed host are too.
   */
  allowedOrigins?: string[] | "*";
  /**
   * Makes the server an OAuth 2.1 protected resource (MCP Authorization): every endpoint needs a bearer
   * token this verifies, the metadata is served at `/.well-known/oauth-protected-resource`, and
   * `.scopes()` on tools take effect. `jwtAuth()` from `@mcplite/sdk/auth` for JWT access tokens, or
   * `protectedResource()` from there with your own `verify`: their value carries the code that serves it, so a
   * server without `auth` bundles none of it (a plain object is refused with a `TypeError`).
   */
  auth?: ServerAuth;
  /**
   * Receives errors that were turned into failures or masked, for logging: a handler's unexpected error (not a
   * `ToolError` or `ProtocolError`), a result its output schema refuses, a store's outage, once each, with the
   * tool call (its `ctx.meta.requestId`). Default: the `logger`'s `error`, with `tool`, `requestId`,
   * `trace_id` and `reference`; with no `logger`, one line on `console.error`; `logger: false` records nothing.
   */
  onError?: ErrorReporter;
  /**
   * A logger such as `console` or pino (`{ debug, info, warn, error }`, called with the record's fields
   * first, then its message): the handlers' `ctx.log()` calls go to it as well as to the client, with
   * the tool's name and, under `otel()` from `@mcplite/sdk/otel`, the request's `trace_id` and
   * `span_id`; the server's own warnings (no secret configured, a tool without a description) go to
   * it instead of to `console.warn`, and its errors (see `onError`) instead of to `console.error`.
   * `false` records nothing at all (as Fastify's `logger: false`): for a test whose handlers throw on purpose.
   *
   * @example
   * ```ts
   * import { createServer } from "../../mod.ts";
   * const quiet = createServer({ name: "test", version: "1.0.0", logger: false }); // no console line per error
   * ```
   */
  logger?: ServerLogger | false;
  /**
   * Answers an unexpected error of a tool call (a handler's error that is not a `ToolError` or
   * `ProtocolError`, a result its output schema refuses) with "Internal error (reference 1f0c9a3e)" instead of
   * the error's own message, which may hold a path, a query or a secret; the reference (8 random hexadecimal
   * digits, also in the failure's `structuredContent` or the error's `data`) is the one on the server's log line
   * of that error (`onError`'s `report.reference`). The same on every wire. A `ToolError` or `ProtocolError`
   * is answered as raised. Default `false`: the caller reads the error's message (never its stack).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import * as v from "valibot";
   * import { createServer, defineTool } from "../../mod.ts";
   * const seen: (string | undefined)[] = [];
   * const server = createServer({
   *   name: "db",
   *   version: "1.0.0",
   *   maskErrors: true,
   *   onError: (_error, _call, report) => void seen.push(report?.reference),
   * }).tool(defineTool("lookup").describe("Looks up a row").input(v.object({})).handle(() => {
   *   throw new Error("connect ECONNREFUSED postgres://admin:hunter2@db:5432");
   * }));
   * const outcome = await server.call("lookup", {});
   * assert.equal(outcome.kind, "failure");
   * assert.match(seen[0] ?? "", /^[0-9a-f]{8}$/);
   * assert.deepEqual(outcome.result.content, [{ type: "text", text: `Internal error (reference ${seen[0]})` }]);
   * ```
   */
  maskErrors?: boolean;
  /**
   * Answers load balancers' health checks: `true` serves `GET /healthz` (or `{ path }` another path,
   * taken as is, without `basePath`) with 200 and `{ status: "ok", name, version, uptime }` (uptime in seconds),
   * before the gate: without authentication and for any `Host`, since load balancers probe by IP
   * address. Off by default.
   */
  health?: boolean | { path?: string };
  /**
   * The MCP revisions served (default: every one of `SUPPORTED_PROTOCOL_VERSIONS`). A request of another
   * revision is refused with -32022 listing these (`data.supported`); `initialize` offers the newest
   * 2025-era one listed; `server/discover` lists the 2026-07-28 one if it is listed.
   */
  protocolVersions?: readonly ProtocolVersion[];
  /**
   * The secret that signs promise tokens and `requestState` (≥ 32 bytes), or a list for rotation: the
   * first signs, any verifies. Defaults to `MCPLITE_SECRET` (comma-separated for rotation); with
   * neither, a random key of this process (tokens then redeem only on this instance, until it restarts).
   * A secret is text (its UTF-8 bytes) or raw bytes.
   */
  secret?: string | Uint8Array | readonly (string | Uint8Array)[];
  /** How the server's tokens (promise tokens, `requestState`) are made: sealing, size bound, lifetimes, clock. */
  tokens?: TokenOptions;
  /** Where `ctx.defer()` results wait (default: in memory, this process only); share one across instances. */
  resultStore?: ResultStore;
  /**
   * Where jobs keep their journals (`work.step()`, `work.sleep()`). Default: the `resultStore`'s own
   * (`redisResultStore()`: a hash per job; `postgresResultStore()`: a table keyed by job and step), else the result
   * store's entries (a read per step to load a journal).
   */
  journalStore?: JournalStore;
  /** MCP Events (`server.event()`): allowed callbacks, lifetimes, budgets, retries (subscriptions: in `resultStore`). */
  events?: EventsOptions;
  /**
   * Where the deferred work of `.longRunning()` tools goes (`bullmqQueue()` from `@mcplite/sdk/bullmq`):
   * the call is answered with its promise or task at once, and a worker (`runWorker()`, `mcplite worker`)
   * runs the tool's handler again with the call's arguments, caller and metadata, and its work. Needs a
   * `resultStore` that the workers share.
   *
   * Left out, with a shared `resultStore` of this SDK (Redis, PostgreSQL, Deno KV): no queue server; the instances
   * keep their queue in that store and each takes its jobs (64 at once) from its first request (or `serve()`) until it
   * drains, so that a job whose instance died is delivered again on a live one within about two leases (`leaseMs`),
   * whether anyone reads it or not. Instances of one server share it by the server's `name`. `"store"` asks for it and
   * is refused where it cannot be. Left out otherwise (one process, a result store of your own, Workers, whose timers
   * end with their requests), deferred work runs in the process that took the call.
   */
  queue?: WorkQueue | "store";
  /**
   * Signals for declared work (`signals()` from `@mcplite/sdk`): `work.waitFor(name)` waits for `server.signal()` or
   * a POST to `work.signalUrl(name)`, which the server serves under its `basePath` at `/signals/`. Give it to every
   * instance and worker.
   */
  signals?: Capability<"signals">;
  /**
   * With a shared `resultStore`, how long the lease of running deferred work lasts, in ms (default
   * 5 000): renewed while the work runs, so a redeem on any instance answers that the instance stopped
   * once it lapses, instead of "not done yet" until the token expires. With a `queue` there is no lease
   * (the queue's lock stands for it): a worker reads the entry of a job that has run a third of this long,
   * and as often, to notice a cancellation made on another instance.
   */
  leaseMs?: number;
  /**
   * Tool search, for large tool sets (`toolSearch()` from `@mcplite/sdk`): the lists show only the
   * pinned tools, a search tool and a call-by-name tool; every tool stays callable. Without it, the
   * lists show every tool.
   */
  toolSearch?: Capability<"toolSearch">;
  /**
   * Code mode (`codeMode()` from `@mcplite/sdk/code-mode`): a discover tool and an execute tool that runs the
   * model's program against the server's tools in a sandbox, each inner call with the caller's rights; the
   * lists show the two (or every tool beside them). Not with `toolSearch`: a `TypeError`.
   */
  codeMode?: Capability<"codeMode">;
  /**
   * A channel shared by every instance (`redisNotifier()` from `@mcplite/sdk/redis`): list_changed and
   * resource-updated notifications raised on any instance reach the listeners held by every instance.
   * Without it, they reach this instance's listeners only.
   */
  notifier?: Notifier;
  /**
   * The server's own configuration values (API keys, endpoints…), read by tools that declare `.config()`:
   * on MCP and MCP-lite they are the whole configuration; on Webtools they are fixed, win over the
   * caller's `config`, and are never published.
   */
  settings?: Record<string, unknown>;
}

/**
 * Options of the server's tokens (promise tokens, `requestState`): `createServer({ tokens })`.
 *
 * @example
 * ```ts
 * import { createServer } from "../../mod.ts";
 * import type { TokenOptions } from "../types.ts";
 *
 * // Promises kept a day, input rounds answered within five minutes.
 * const tokens: TokenOptions = { promiseTtlMs: 24 * 60 * 60_000, inputTtlMs: 5 * 60_000 };
 * createServer({ name: "reports", version: "1.0.0", tokens });
 * ```
 */
export interface TokenOptions {
  /**
   * Encrypts token payloads with AES-256-GCM so clients cannot read the tool, the state or the job ids
   * (default `true`, MCP-lite spec v0.042 §3.5: tokens are opaque to clients); `false` only signs them.
   */
  seal?: boolean;
  /** The longest token made or accepted, in characters (default 16 384); a larger state is the tool's error. */
  maxBytes?: number;
  /** How long promise tokens and deferred results last, in ms (default one hour). */
  promiseTtlMs?: number;
  /** How long an input round's `requestState` lasts, in ms (default ten minutes). */
  inputTtlMs?: number;
  /** The default `retry_after_ms` of a promise (default 1 000). */
  retryAfterMs?: number;
  /** The clock, in ms since the epoch (default `Date.now`); tests inject one. */
  now?: () => number;
}

/**
 * Applies the defaults.
 *
 * @param options The options.
 * @returns The resolved options.
 * @throws {TypeError} When the name or version is missing.
 */
export function resolveOptions(options: ServerOptions): ResolvedOptions {
  if (!options || typeof options.name !== "string" || typeof options.version !== "string") {
    throw new TypeError("createServer() needs { name, version }");
  }
  return {
    name: options.name,
    version: options.version,
    title: options.title,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.icons === undefined ? {} : { icons: checkIcons(options.icons, "createServer()") }),
    ...(options.websiteUrl === undefined ? {} : { websiteUrl: checkWebsite(options.websiteUrl) }),
    instructions: options.instructions,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxJsonDepth: options.maxJsonDepth ?? 64,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    holdMs: holdMsOf(options.holdMs ?? PUSH_MS, "holdMs"),
    basePath: resolveBasePath(options.basePath),
    protocolVersions: resolveProtocolVersions(options.protocolVersions),
    auth: options.auth === undefined ? undefined : describedAuth(options.auth),
  };
}

/**
 * Checks a hold setting (the server's `holdMs`, or a binding's override of it).
 *
 * @param value The setting.
 * @param name Its name, for the error.
 * @returns The setting.
 * @throws {TypeError} When it is negative or not finite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdMsOf } from "./server-options.ts";
 * assert.equal(holdMsOf(0, "holdMs"), 0);
 * assert.throws(() => holdMsOf(-1, "mcp.holdMs"), TypeError);
 * ```
 */
export function holdMsOf(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a non-negative number`);
  return value;
}

/** Checks `websiteUrl`: an absolute http(s) URL (MCP 2025-11-25, `Implementation.websiteUrl`). */
function checkWebsite(url: string): string {
  if (typeof url !== "string" || !/^https?:\/\/[^\s]+$/.test(url)) {
    throw new TypeError(`createServer(): websiteUrl must be an absolute http(s) URL, got ${JSON.stringify(url)}`);
  }
  return url;
}

/** What bindings may read of the server's `auth`: its identity and scopes, never its verifier. */
function describedAuth(auth: ServerAuth): ResolvedOptions["auth"] {
  const { resource, authorizationServers, scopesSupported, requiredScopes } = auth;
  return Object.freeze({ resource, authorizationServers, scopesSupported, requiredScopes });
}

/**
 * Checks and normalises the `basePath` option: `"api/"` is `/api`; `"/"` or none is no prefix.
 *
 * @param basePath The option.
 * @returns The prefix, `""` for none.
 * @throws {TypeError} For a path with a query, fragment, wildcard or whitespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveBasePath } from "./server-options.ts";
 * assert.equal(resolveBasePath("api/"), "/api");
 * assert.equal(resolveBasePath("/"), "");
 * assert.throws(() => resolveBasePath("/api?x"), TypeError);
 * ```
 */
export function resolveBasePath(basePath: string | undefined): string {
  if (basePath === undefined) return "";
  if (typeof basePath !== "string" || /[?#*\s]/.test(basePath)) {
    throw new TypeError(`basePath must be a plain path (no ?, #, * or whitespace), got ${JSON.stringify(basePath)}`);
  }
  const path = normalisePath(basePath);
  return path === "/" ? "" : path;
}

/**
 * Puts a route's path under the server's prefix: a binding's root `/` becomes the prefix itself.
 *
 * @param basePath The prefix (`""` for none).
 * @param path The binding's path.
 * @returns The path served.
 */
export function prefixed(basePath: string, path: string): string {
  if (basePath === "") return path;
  return path === "/" ? basePath : basePath + path;
}

/**
 * Normalises a configured path: a leading `/`, no trailing one (except for the root).
 *
 * @param path The path, e.g. `mcp/` or `/api`.
 * @returns The path, e.g. `/mcp`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalisePath } from "./server-options.ts";
 * assert.equal(normalisePath("webtools/"), "/webtools");
 * assert.equal(normalisePath("/"), "/");
 * ```
 */
export function normalisePath(path: string): string {
  const withLead = path.startsWith("/") ? path : `/${path}`;
  return withLead.length > 1 && withLead.endsWith("/") ? withLead.slice(0, -1) : withLead;
}

/**
 * What the server is built with besides its options: the capabilities `createServer()` of `@mcplite/sdk` always
 * passes, and that of `@mcplite/sdk/lite` passes when given them (`LiteServerOptions`).
 */
export interface AssembledServerOptions extends ServerOptions {
  /**
   * Long-running support: lets tools answer "not done yet" (`.redeem()`, `.longRunning()`, `ctx.promise()`,
   * `ctx.defer()`), lists the `redeem` system tool and serves MCP tasks. `createServer` of `@mcplite/sdk`
   * always has it; that of `@mcplite/sdk/lite` only when given `longRunning` (exported by both), so that a
   * server without such tools bundles none of it. Registering a long-running tool without it throws.
   */
  longRunning?: Capability<"longRunning">;
  /**
   * Input-round support: signs the `requestState` of a call whose handler asks the client
   * (`ctx.elicit()`, `ctx.sample()`, `ctx.roots()`; MCP 2026-07-28, multi round-trip requests).
   * `createServer` of `@mcplite/sdk` always has it; that of `@mcplite/sdk/lite` only when given
   * `inputRounds` (or `longRunning`, whose tokens sign them too), so that a server that asks nothing
   * bundles no token codec. Without it, a handler that asks fails naming the fix.
   */
  inputRounds?: Capability<"inputRounds">;
  /**
   * Group support: what `server.group()` runs. `createServer` of `@mcplite/sdk` always has it; that
   * of `@mcplite/sdk/lite` only when given `group`. Without it, `server.group()` throws naming the fix.
   */
  group?: Capability<"group">;
}
