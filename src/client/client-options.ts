/**
 * The options of a client (`createClient()`) and of its list requests.
 *
 * @module
 */
import type { ClientAuth } from "./http.ts";
import type { HeadersLike } from "../internal/headers-like.ts";
import type { InputHandlers } from "./input.ts";
import type { RetryOptions } from "./retry.ts";
import type { ClientInfo, ClientTelemetry } from "./transport.ts";
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";

/**
 * The options of a client ({@link createClient}): handlers, timeouts, retries, telemetry and who it is, for every
 * target; how the HTTP requests go (`transport`, `fetch`, `headers`, `auth`, `protocolVersion`,
 * `maxResponseBytes`) for a URL; the wire, paths and headers for a server in the same process. Each target's
 * overload of `createClient()` takes the options it uses, and refuses the rest at compile time and at run time.
 */
export interface ClientOptions extends InputHandlers {
  /** Who the client is (MCP `clientInfo`). */
  clientInfo?: ClientInfo;
  /** More client capabilities to declare, merged over those the handlers imply. */
  capabilities?: Record<string, unknown>;
  /**
   * The MCP extensions the client supports, by identifier, each with its settings (`{}`: none), declared as
   * `capabilities.extensions` (SEP-2133): in `initialize` on the 2025 revisions, in `server/discover` and each
   * request's `_meta` on 2026-07-28.
   */
  extensions?: Record<string, Record<string, unknown>>;
  /**
   * Handle tasks (default `true`): declare the MCP tasks extension, so servers may answer with tasks,
   * and on MCP 2025-11-25 call a tool that requires a task as one (Tasks: tool-level negotiation).
   */
  tasks?: boolean;
  /** The MCP log level to ask for; log messages reach `onLog`. */
  logLevel?: string;
  /** The idle timeout of every request, in ms (default 60 000; 0 disables it). */
  timeoutMs?: number;
  /** The total timeout of every request, in ms (default none). */
  maxTimeoutMs?: number;
  /** The task poll interval when the server gives none, in ms (default 1 000). */
  pollIntervalMs?: number;
  /** The most input rounds one request may take (default 10). */
  maxInputRounds?: number;
  /**
   * The backoff between redeems when the server gives no delay: `initialMs`, the first wait (default 250), doubling
   * up to `maxMs` (default 10 000).
   */
  redeemBackoff?: { initialMs?: number; maxMs?: number };
  /** Receives warnings, e.g. a tool dropped for an invalid `x-mcp-header`. */
  onWarning?: (message: string) => void;
  /**
   * Retries of requests the server refused as unavailable or too busy (503 or 429 with `Retry-After`, -32603 with
   * `data.reason: "unavailable"`, gRPC `UNAVAILABLE`), after the wait it names: reads, `tasks/get`,
   * MCP-lite redeems, and calls refused before they ran; never a `tools/call` that may have run.
   * Default: 3 attempts, 10 s of waiting in all; `false` turns retries off.
   */
  retry?: RetryOptions | false;
  /**
   * Traces every request the client sends and carries the trace context to the server: `otelClient()`
   * from `@mcplite/sdk/otel` (OpenTelemetry, per the semantic conventions for MCP).
   */
  telemetry?: ClientTelemetry;
  /**
   * The wire. For a URL: `auto` (default: the URL's path decides, a bare origin is probed: MCP-lite, then MCP),
   * `mcp-lite` (the URL is the base; a bare origin gets `/mcp-lite/v1`), `mcp` (the URL is the endpoint). In
   * process: `mcp-lite` (default: tried first, then MCP), `mcp`, or `auto`. Not with a transport, which is the wire.
   */
  transport?: "auto" | "mcp-lite" | "mcp";
  /** For a URL: the fetch function (default: the global one), e.g. to add retries or a proxy. */
  fetch?: (request: Request) => Response | Promise<Response>;
  /**
   * For a URL or a server in process: headers for every request, e.g. `{ authorization: "Bearer …" }` (in
   * process, for its middleware to see), or a function giving fresh ones.
   */
  headers?: HeadersLike | (() => HeadersLike | Promise<HeadersLike>);
  /**
   * For a URL: OAuth for protected servers (MCP Authorization): `oauth({…})` for a user's consent,
   * `clientCredentials({…})` for machines (`@mcplite/sdk/client/auth`). Wraps the fetch every HTTP request goes
   * through.
   */
  auth?: ClientAuth;
  /** For a URL or a server in process: the MCP revision to speak (default 2026-07-28, falling back to 2025's). */
  protocolVersion?: string;
  /**
   * For a URL: the most bytes the client reads of one answer (default 16 MiB = 16 777 216): a JSON body, one SSE
   * event (its data lines, or one line that never ends). Each body is read with a running count; past the bound
   * the body is cancelled, nothing more is read, and the request fails with an `McpliteError` whose code is
   * `payload_too_large` and whose `data.maxResponseBytes` is the bound. A transport takes it where it is made
   * (`grpcTransport(url, …)`, `createStdioTransport({ … })`).
   *
   * @example
   * ```ts ignore
   * import { createClient } from "@mcplite/sdk/client";
   * // A server whose tool lists run large: 32 MiB per answer.
   * const client = createClient("https://tools.example.com/mcp", { maxResponseBytes: 32 * 1024 * 1024 });
   * ```
   */
  maxResponseBytes?: number;
  /**
   * Message middleware, outermost first: each sees every JSON-RPC message the client sends and receives, both
   * directions, on MCP over HTTP (every revision; a JSON answer's and an SSE stream's messages), stdio and a
   * WebSocket (MCP-lite's JSON-RPC messages there too), and in process. It may replace or drop a message, and answer
   * a server's request (2025 elicitation, sampling, roots) itself. A transport given must take it (those of
   * `createStdioTransport()` and `createWebSocketTransport()` do). See `MessageMiddleware` (`@mcplite/sdk/types`).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer } from "../../mod.ts";
   * import { createClient } from "./mod.ts";
   * const server = createServer({ name: "demo", version: "1.0.0" });
   * const methods: string[] = [];
   * const client = createClient(server, {
   *   transport: "mcp",
   *   intercept: [async (message, info, next) => {
   *     if (info.direction === "out") methods.push(String(info.method));
   *     await next();
   *   }],
   * });
   * await client.listTools();
   * assert.deepEqual(methods, ["server/discover", "tools/list"]);
   * ```
   */
  intercept?: readonly MessageMiddleware[];
  /** In process: the server's MCP-lite base path (default `/mcp-lite/v1`). */
  basePath?: string;
  /** In process: the server's MCP path (default `/mcp`). */
  path?: string;
}
