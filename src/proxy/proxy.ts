/**
 * `proxy()`: a server whose tools, prompts, resources, templates and completions are a remote server's,
 * reached through the typed client; grouped into ours (`server.group("gh", await proxy(url))`), they are
 * served on every wire ours speaks.
 *
 * @module
 */
import { createServer } from "../assembly/create-server.ts";
import type { AuthInfo } from "../core/call/host.ts";
import type { ComposedDefinitions } from "../core/definitions/composed-definitions.ts";
import { registryOf } from "../core/definitions/registry.ts";
import { attachListener } from "../server/listener.ts";
import type { GroupOptions, Server } from "../server/server.ts";
import type { Client, ClientOptions } from "../client/client.ts";
import type { ToolsOf } from "../client/client-types.ts";
import type { StdioTransportOptions } from "../client/transports/stdio.ts";
import { isObject } from "../internal/is-object.ts";
import { DECLINING } from "./ask-caller.ts";
import { type Caller, callerClients } from "./caller-client.ts";
import type { ProxySessionsOptions } from "./caller-sessions.ts";
import { type Follower, followLists } from "./follow-lists.ts";
import { Mirror } from "./mirror.ts";
import { connectRemote } from "./remote.ts";
import { remoteError } from "./remote-error.ts";
import { remoteExtensions } from "./remote-extensions.ts";
import { relayRemoteNotices } from "./remote-notices.ts";
import { remoteSubscriptions } from "./remote-subscriptions.ts";

/** MCP Events' extension (SEP-3415). */
const EVENTS = "io.modelcontextprotocol/events";

/**
 * Options of {@link proxy}. `resourcePrefix` and `transformResource` serve the remote's resources as
 * `server.group()` does (see {@link GroupOptions}): under a URI prefix, so one remote can be proxied twice into a
 * gateway without their URIs clashing, and some left out.
 */
export interface ProxyOptions extends ClientOptions, Pick<GroupOptions, "resourcePrefix" | "transformResource"> {
  /** The proxy server's name (default: the name the remote gives, else `proxy`). */
  readonly name?: string;
  /** The proxy server's version (default: the version the remote gives, else `0.0.0`). */
  readonly version?: string;
  /** The wait a caller is told (`Retry-After`) when the remote is out of reach, in ms (default 1 000). */
  readonly retryAfterMs?: number;
  /**
   * How often the remote's lists are read again, in ms (default 30 000; 0: never): the tools revalidated with
   * their `ETag` (an unchanged list costs a 304), a change served at once, with `list_changed`. A call the
   * remote answers as an unknown tool reads them again at once, and so does the remote's own `list_changed`
   * (heard on stdio, an MCP 2025 session's stream, or an MCP 2026-07-28 `subscriptions/listen` stream).
   */
  readonly refreshMs?: number;
  /**
   * Sends the caller's own bearer token to the remote instead of the proxy's credentials, only when the token's
   * audience (`aud`, RFC 8707 resource indicators) names `audience`, the remote; any other caller's token is never
   * sent. Off by default: MCP 2025-11-25 (Authorization) forbids passing a token through to a service it was not
   * issued for. A URL target only.
   */
  readonly forwardCallerToken?: { readonly audience: string };
  /**
   * Exchanges the caller's bearer token for one issued for the remote (RFC 8693 token exchange, done by the hook:
   * `subject_token` the caller's), sent instead of the proxy's credentials; `undefined` sends the proxy's own. A
   * URL target only.
   */
  readonly exchangeToken?: (callerToken: string, caller: AuthInfo) => string | undefined | Promise<string | undefined>;
  /** Closes the connection to the remote when aborted (a stdio server's process ends, an MCP 2025 session too). */
  readonly signal?: AbortSignal;
  /**
   * How callers' own sessions at an MCP 2025 remote over HTTP are kept, or `"shared"` for one session for
   * every caller. A remote keeps state per session (MCP 2025-11-25, Transports: Session Management): what it
   * asked a caller to do first (a URL elicitation's prerequisite), its log level and logging, its resource
   * subscriptions and roots. So by default each caller goes through a session of its own, known by the principal
   * the server's `auth` verified (`ctx.auth.subject`, with its `clientId`), else by the caller's own MCP 2025
   * session (its `Mcp-Session-Id`, or its stdio or WebSocket connection's); the caller's log level is set in it
   * (`logging/setLevel`), and what it sends outside requests (its logs, its resource updates) goes to that caller
   * alone. At most `max` are kept (default 100; past it the least recently used is closed), each closed `idleMs`
   * after its last use (default 600 000); never one a call in flight or a subscription holds (with all held, more
   * than `max` are kept rather than break a caller's call); closing one ends it at the remote
   * (`DELETE`). A caller that cannot be told apart (no `auth`, on a stateless wire: MCP 2026-07-28, MCP-lite,
   * Webtools, OpenAPI, gRPC, in process) goes through the proxy's own session, shared with every such caller. A
   * remote without sessions (MCP 2026-07-28, MCP-lite) and a stdio remote (one process, one session) are shared.
   *
   * @example
   * ```ts
   * import { proxy } from "@mcplite/sdk/proxy";
   * const options = { sessions: { max: 500, idleMs: 300_000 }, signal: AbortSignal.abort() };
   * // Aborted at once here: the example shows the options only.
   * await proxy("https://mcp.example.com/mcp", options).catch(() => {});
   * ```
   */
  readonly sessions?: ProxySessionsOptions | "shared";
  /**
   * The remote's extensions (SEP-2133) not to serve, by identifier. Every other one it declares in
   * `capabilities.extensions` is advertised as it advertises it, on MCP (both eras): its requests and client
   * notifications (every method under its identifier, and those an official extension's specification names) go
   * on to the remote, through the caller's own session where callers have one; its answer, its errors and what it
   * notifies on the request's stream come back. Not the tasks extension: the remote's tasks become the proxy's
   * own promises. Not on MCP-lite or gRPC, whose extension methods are named by the extensions served.
   */
  readonly excludeExtensions?: readonly string[];
}

/**
 * Proxies a remote server: connects to it (a URL, found as `createClient()` finds its wire: MCP
 * 2026-07-28, MCP 2025, MCP-lite; a stdio command; or a client), reads its lists, and gives a server
 * whose tools, prompts, resources, templates and completions forward to it, the remote's JSON Schemas
 * verbatim. Group it into yours to serve the remote on every wire yours speaks (a stdio server becomes a
 * gRPC and REST service). A call carries its signal (a cancellation reaches the remote), progress, log
 * messages and trace context across, and asks the remote's elicitations of its caller; a remote promise or
 * task becomes a promise of ours; the caller's token is never sent unless `forwardCallerToken` or
 * `exchangeToken` says so; the remote's error codes are kept; a remote out of reach (or refusing the proxy's
 * credentials) answers `unavailable` (503 with `Retry-After` on HTTP, `UNAVAILABLE` on gRPC) naming the remote, a
 * reason and `retryAfterMs`, never a tool error, and the next call tries again (a stdio server that keeps exiting,
 * after a backoff); what else went wrong (the remote's URL, an error's body, a child's stderr) goes to `onError` only.
 * Behind an MCP 2025 remote over HTTP each caller goes through a session of its own (`sessions`); the remote's
 * extensions are served as it declares them (`excludeExtensions`); `resourcePrefix` mounts one remote twice.
 *
 * @typeParam S The remote's type, as `createClient<S>()` takes it (`typeof server`, generated types).
 * @param target The remote: a URL, a stdio command (`{ command, args }`), or a client.
 * @param options The server's name and version, `retryAfterMs`, and the client's options to the remote.
 * @returns The server, once the remote's lists are read: typed with its tools (and events, of `typeof server`).
 * @throws {McpliteError} `unavailable` when the remote cannot be reached at first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "@mcplite/sdk";
 * import { createClient } from "@mcplite/sdk/client";
 * import { proxy } from "@mcplite/sdk/proxy";
 *
 * const remote = createServer({ name: "math", version: "1.0.0" })
 *   .tool(defineTool("add").describe("Adds").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b));
 * const gateway = createServer({ name: "gateway", version: "1.0.0" })
 *   .group("math", await proxy<typeof remote>(createClient(remote)));
 * assert.equal(await createClient(gateway).call("math.add", { a: 1, b: 2 }), "3");
 * ```
 */
export async function proxy<S = unknown>(
  // deno-lint-ignore no-explicit-any
  target: string | URL | StdioTransportOptions | Client<any>,
  options: ProxyOptions = {},
  // deno-lint-ignore no-explicit-any
): Promise<Server<ToolsOf<S>, S extends Server<any, infer E> ? E : Record<never, never>>> {
  const {
    name,
    version,
    retryAfterMs = 1_000,
    refreshMs = 30_000,
    signal,
    forwardCallerToken,
    exchangeToken,
    sessions = {},
    resourcePrefix,
    transformResource,
    excludeExtensions = [],
    ...clientOptions
  } = options;
  signal?.throwIfAborted();
  // The client declares all a proxied call's caller may answer (./ask-caller.ts): both elicitation modes,
  // sampling with tools, roots; each call then passes on what its caller declared, where requests carry it.
  const kept = sessions === "shared" ? undefined : sessions;
  const remote = connectRemote(target, { ...DECLINING, ...clientOptions, ...(kept && { sessions: kept }) });
  const callers = callerClients(remote, { forwardAudience: forwardCallerToken?.audience, exchange: exchangeToken });
  signal?.addEventListener("abort", () => void remote.close().catch(() => {}), { once: true });
  const following: { follower?: Follower } = {}; // made once the lists are read
  const withClient = <T>(caller: Caller, use: (client: Client) => Promise<T>) => callers.withClient(caller, use);
  // The remote's name in a caller's error: ours once known, never its URL (its query may hold a key).
  const hop = { name: name ?? "remote", retryAfterMs, stale: () => following.follower?.now(), withClient };
  let described: Record<string, unknown> | null;
  try {
    described = await remote.client.discover();
  } catch (error) {
    remote.failed(error);
    throw remoteError(error, retryAfterMs, hop.name);
  }
  const info = isObject(described?.serverInfo) ? described.serverInfo : {};
  hop.name = name ?? (typeof info.name === "string" ? info.name : "proxy");
  const server = createServer({
    name: hop.name,
    version: version ?? (typeof info.version === "string" ? info.version : "0.0.0"),
  });
  const capabilities = isObject(described?.capabilities) ? described.capabilities : undefined;
  const modern = Array.isArray(described?.supportedVersions); // MCP 2026-07-28's server/discover
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  // An MCP 2025 remote over HTTP keeps state per session (2026-07-28 and MCP-lite keep none).
  const sessioned = kept !== undefined && remote.holdFor !== undefined && !modern && remote.client.wire === "mcp";
  if (sessioned) callers.keepApart(capabilities?.logging !== undefined);
  const watch = remoteSubscriptions(remote, { modern, capabilities, sessioned }, signal);
  // The remote is a provider of the proxy's server: its mirror is the provider's cache, checked as the server's own.
  const registry = registryOf(attachListener(server).core) as ComposedDefinitions;
  const mirror = new Mirror(remote, { ...hop, watch }, capabilities, warn, (tool) => registry.check(tool));
  try {
    await mirror.syncAll();
  } catch (error) {
    remote.failed(error);
    throw remoteError(error, retryAfterMs, hop.name);
  }
  registry.mount(mirror);
  // A remote that serves events (either profile's capability): its events are served as ours are, by their router,
  // namespaced with the tools when grouped (./proxied-events.ts, loaded only then); not passed on as an extension.
  const events = !excludeExtensions.includes(EVENTS) && (isObject(capabilities?.events) ||
    (isObject(capabilities?.extensions) && isObject(capabilities.extensions[EVENTS])));
  if (events) {
    const { serveRemoteEvents } = await import("./proxied-events.ts");
    await serveRemoteEvents(registry, remote.client, hop, warn, { refreshMs, signal });
  }
  const excluded = events ? [...excludeExtensions, EVENTS] : excludeExtensions;
  for (const extension of remoteExtensions(capabilities, excluded, { ...hop, watch }, warn)) {
    server.extension(extension);
  }
  following.follower = followLists(mirror, remote, refreshMs, signal, { modern, capabilities });
  relayRemoteNotices(remote, registry, signal, sessioned);
  if (resourcePrefix === undefined && transformResource === undefined) return server as never;
  // Served as group() serves a child's resources: one way to prefix or leave them out.
  const served = createServer({ name: hop.name, version: server.version });
  return served.group(server, { resourcePrefix, transformResource }) as never;
}
