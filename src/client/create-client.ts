/**
 * `createClient()`: a client for a URL (the wire chosen or discovered), a {@link Transport}, or a
 * server object in the same process.
 *
 * @module
 */
import { Client, type ClientOptions } from "./client.ts";
import { isTransport, type Transport } from "./transport.ts";
import { createAutoTransport } from "./transports/auto.ts";
import { createInProcessTransport, type FetchTarget, type InProcessOptions } from "./transports/in-process.ts";
import { createMcpTransport } from "./transports/mcp.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./transports/mcplite.ts";
import type { ToolsOf, UntypedTools } from "./types.ts";

/**
 * Creates a client for a server at a URL, for a {@link Transport}, or for a server object in the same
 * process (its `fetch` is called directly, no socket).
 *
 * @param target A URL, a transport, or a `Server`.
 * @param options Handlers, timeouts, headers and the wire.
 * @returns The client, typed by `S` (`createClient<typeof server>(…)`) or by the server passed.
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
  target: string | URL | Transport,
  options?: ClientOptions,
): Client<ToolsOf<S>>;
/**
 * Creates a client that calls a server object in the same process.
 *
 * @param target The server (or any `{ fetch }`).
 * @param options Handlers, timeouts, and the in-process wire (`mcp-lite` tried first).
 * @returns The client, typed by the server.
 */
export function createClient<S extends FetchTarget>(
  target: S,
  options?: ClientOptions & InProcessOptions,
): Client<ToolsOf<S>>;
export function createClient(
  target: string | URL | Transport | FetchTarget,
  options: ClientOptions & InProcessOptions = {},
): Client<UntypedTools> {
  return new Client(transportFor(target, options), options);
}

function transportFor(
  target: string | URL | Transport | FetchTarget,
  options: ClientOptions & InProcessOptions,
): Transport {
  if (isTransport(target)) return target;
  if (typeof target === "string" || target instanceof URL) {
    const url = new URL(target);
    const http = {
      fetch: options.fetch,
      headers: options.headers,
      auth: options.auth,
      protocolVersion: options.protocolVersion,
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
    const wire = options.wire ??
      (options.transport === "mcp" || options.transport === "mcp-lite" ? options.transport : undefined);
    return createInProcessTransport(target as FetchTarget, { ...options, ...(wire ? { wire } : {}) });
  }
  throw new TypeError("createClient() needs a URL, a transport, or a server with a fetch method");
}
