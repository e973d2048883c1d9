/**
 * `createClient()`: a client for a URL (the wire chosen or discovered), a {@link Transport}, or a
 * server object in the same process.
 *
 * @module
 */
import { Client, type ClientOptions } from "./client.ts";
import { isTransport, type Transport } from "./transport.ts";
import { createAutoTransport } from "./transports/auto.ts";
import { createInProcessTransport, type FetchTarget } from "./transports/in-process.ts";
import { createMcpTransport } from "./transports/mcp.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./transports/mcplite.ts";
import type { ToolsOf, UntypedTools } from "./client-types.ts";
import type { EventsOf } from "./event-types.ts";
import type { FetchLike } from "./http.ts";
import type { MessageMiddleware } from "../message-middleware/message-middleware.ts";

/**
 * Creates a client for a server at a URL (the wire chosen by `transport`, or discovered), for a
 * {@link Transport}, or for a server object in the same process (its `fetch` is called directly, no
 * socket). Each takes the options it uses, and refuses at compile time and at run time those it would
 * ignore, saying where they go.
 *
 * @param target A URL, a transport, or a `Server`.
 * @param options Handlers, timeouts, and how the HTTP requests go: `fetch`, `headers`, `auth`, the wire.
 * @returns The client, typed by `S` (`createClient<typeof server>(…)`) or by the server passed.
 * @throws {TypeError} When `options` names `basePath` or `path`, which are for a server in process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../mod.ts";
 * import { createClient } from "./mod.ts";
 *
 * const add = defineTool("add")
 *   .input(v.object({ a: v.number(), b: v.number() }))
 *   .output(v.object({ sum: v.number() }))
 *   .handle(({ a, b }) => ({ sum: a + b }));
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add);
 *
 * const client = createClient(server); // in process; or createClient<typeof server>("http://localhost:8000")
 * const { sum } = await client.call("add", { a: 1, b: 2 });
 * assert.equal(sum, 3);
 * ```
 */
export function createClient<S = unknown>(
  target: string | URL,
  options?: Omit<ClientOptions, "basePath" | "path">,
): Client<ToolsOf<S>, EventsOf<S>>;
/**
 * Creates a client over a transport (`grpcTransport(…)`, `createStdioTransport(…)`, `createWebSocketTransport(…)`,
 * `createWebtoolsTransport(…)`, one of your own), which sends the requests as it was made to: how they go (`fetch`,
 * `headers`, `auth`, `protocolVersion`) is given to the transport, and refused here.
 *
 * @param target The transport.
 * @param options Handlers, timeouts, retries and telemetry.
 * @returns The client, typed by `S` (`createClient<typeof server>(transport)`).
 * @throws {TypeError} When `options` names an option of the transport's.
 */
export function createClient<S = unknown>(
  target: Transport,
  options?: Omit<
    ClientOptions,
    "transport" | "fetch" | "headers" | "auth" | "protocolVersion" | "maxResponseBytes" | "basePath" | "path"
  >,
): Client<ToolsOf<S>, EventsOf<S>>;
/**
 * Creates a client that calls a server object in the same process.
 *
 * @param target The server (or any `{ fetch }`).
 * @param options Handlers, timeouts, headers, and the wire (`transport`: `mcp-lite` tried first).
 * @returns The client, typed by the server.
 * @throws {TypeError} When `options` names `fetch`, `auth` or `maxResponseBytes`, which in process have nothing
 *   to act on.
 */
export function createClient<S extends FetchTarget>(
  target: S,
  options?: Omit<ClientOptions, "fetch" | "auth" | "maxResponseBytes">,
): Client<ToolsOf<S>, EventsOf<S>>;
/**
 * Creates a client for a target known to be a URL or a transport, not which: the options both take.
 *
 * @param target A URL or a transport.
 * @param options Handlers, timeouts, retries and telemetry.
 * @returns The client, typed by `S`.
 * @throws {TypeError} When a transport is given with an option of the transport's.
 */
export function createClient<S = unknown>(
  target: string | URL | Transport,
  options?: Omit<
    ClientOptions,
    "transport" | "fetch" | "headers" | "auth" | "protocolVersion" | "maxResponseBytes" | "basePath" | "path"
  >,
): Client<ToolsOf<S>, EventsOf<S>>;
export function createClient(
  target: string | URL | Transport | FetchTarget,
  options: ClientOptions = {},
): Client<UntypedTools> {
  return new Client(transportFor(target, options), options);
}

/** The options a transport's own requests take: given with a transport, they would do nothing. */
const TRANSPORT_OWN = ["transport", "fetch", "headers", "auth", "protocolVersion", "maxResponseBytes"] as const;
/** The options of an in-process client only. */
const IN_PROCESS_ONLY = ["basePath", "path"] as const;

/** Refuses options the target would ignore, saying where each goes. */
function refuseIgnored(
  target: "url" | "transport" | "server",
  options: ClientOptions,
): void {
  const given = (names: readonly string[]) =>
    names.filter((name) => (options as Record<string, unknown>)[name] !== undefined);
  const ignored = target === "transport"
    ? given(TRANSPORT_OWN)
    : target === "server"
    ? given(["fetch", "auth", "maxResponseBytes"])
    : given(IN_PROCESS_ONLY);
  if (ignored.length === 0) return;
  const names = ignored.map((name) => `\`${name}\``).join(", ");
  const where = target === "transport"
    ? ignored.length === 1 && ignored[0] === "transport"
      ? "the transport is the wire"
      : `a transport sends its own requests: give the transport ${
        ignored.filter((n) => n !== "transport").join(", ")
      } where it is made, or pass the URL instead: createClient(url, { … })`
    : target === "server"
    ? "in process the server's own fetch is called, with no authorization flow: send what its auth checks as " +
      'headers: { authorization: "Bearer …" }'
    : "they are for a server in the same process; for a URL, `transport` chooses the wire and the URL holds the path";
  throw new TypeError(`createClient(${target}, options): ${names} would be ignored: ${where}`);
}

function transportFor(
  target: string | URL | Transport | FetchTarget,
  options: ClientOptions,
): Transport {
  if ((options as { wire?: unknown }).wire !== undefined) {
    throw new TypeError("createClient(target, { wire }): the wire is `transport` now, for a server in process too");
  }
  const chain = options.intercept;
  if (isTransport(target)) {
    refuseIgnored("transport", options);
    if (chain !== undefined) {
      if (target.intercept === undefined) {
        throw new TypeError(
          `createClient(transport, { intercept }): the ${target.wire} transport takes no message middleware`,
        );
      }
      target.intercept(chain);
    }
    return target;
  }
  if (typeof target === "string" || target instanceof URL) {
    refuseIgnored("url", options);
    const url = new URL(target);
    const http = {
      fetch: intercepted(options.fetch, chain),
      headers: options.headers,
      auth: options.auth,
      protocolVersion: options.protocolVersion,
      maxResponseBytes: options.maxResponseBytes,
    };
    switch (options.transport ?? "auto") {
      case "mcp":
        return createMcpTransport(url, http);
      case "mcp-lite":
        return createMcpliteTransport(
          url.pathname.replace(/\/+$/, "") === "" ? url.origin + MCPLITE_BASE_PATH : url,
          http,
        );
      case "auto":
        return createAutoTransport(url, http);
      default:
        throw new TypeError(`Unknown transport ${JSON.stringify(options.transport)}: use auto, mcp-lite or mcp`);
    }
  }
  if (typeof target === "object" && target !== null && typeof (target as FetchTarget).fetch === "function") {
    refuseIgnored("server", options);
    const { transport: wire, ...rest } = options;
    const server = target as FetchTarget;
    const fetch = intercepted((request) => server.fetch(request), chain);
    const through = chain === undefined ? server : { basePath: server.basePath, fetch: fetch! };
    return createInProcessTransport(through, { ...rest, ...(wire ? { wire } : {}) });
  }
  throw new TypeError("createClient() needs a URL, a transport, or a server with a fetch method");
}

/** A fetch whose JSON-RPC messages pass the middleware; the module that runs them loads with the first request. */
function intercepted(
  fetch: FetchLike | undefined,
  chain: readonly MessageMiddleware[] | undefined,
): FetchLike | undefined {
  if (chain === undefined) return fetch;
  let through: Promise<FetchLike> | undefined;
  return async (request) => {
    through ??= import("./message-fetch.ts").then((m) => m.fetchThrough(fetch ?? ((r) => globalThis.fetch(r)), chain));
    return await (await through)(request);
  };
}
