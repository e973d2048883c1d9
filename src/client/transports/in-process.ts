/**
 * The in-process transport: the client calls a server's `fetch` directly, with no socket, over the
 * same wire it would use on the network (MCP-lite by default), so every feature behaves as deployed.
 *
 * @module
 */
import type { FetchLike } from "../http.ts";
import type { HeadersLike } from "../../internal/headers-like.ts";
import type { Transport } from "../transport.ts";
import { AutoTransport } from "./auto.ts";
import { createMcpTransport } from "./mcp.ts";
import { createMcpliteTransport, MCPLITE_BASE_PATH } from "./mcplite.ts";
import { withPeer } from "../carry-trace.ts";

/** Something that answers requests: a `Server`, or any `{ fetch }`. */
export interface FetchTarget {
  /** Answers a request. */
  fetch(request: Request): Response | Promise<Response>;
  /** The prefix of its routes (a `Server` has its `basePath`); none when absent. */
  readonly basePath?: string;
}

/** Options of {@link createInProcessTransport}. */
export interface InProcessOptions {
  /** The wire: `mcp-lite` (default: tried first), `mcp`, or `auto` (MCP-lite, then MCP). */
  wire?: "mcp-lite" | "mcp" | "auto";
  /** The server's MCP-lite base path (default `/mcp-lite/v1`). */
  basePath?: string;
  /** The server's MCP path (default `/mcp`). */
  path?: string;
  /** The MCP revision to speak. */
  protocolVersion?: string;
  /** Extra headers, e.g. `Authorization` for middleware to see. */
  headers?: HeadersLike | (() => HeadersLike | Promise<HeadersLike>);
}

/** The origin in-process requests carry: loopback, so a server's Host check passes. */
const ORIGIN = "http://localhost";

/**
 * Creates a transport that calls `target.fetch` directly.
 *
 * @param target The server.
 * @param options The wire and paths.
 * @returns The transport.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { createClient } from "../mod.ts";
 * import { createInProcessTransport } from "./in-process.ts";
 *
 * const add = defineTool("add").input(v.object({ a: v.number(), b: v.number() })).handle(({ a, b }) => a + b);
 * const server = createServer({ name: "math", version: "1.0.0" }).tool(add);
 * const client = createClient<typeof server>(createInProcessTransport(server));
 * assert.equal(await client.call("add", { a: 1, b: 2 }), "3");
 * ```
 */
export function createInProcessTransport(target: FetchTarget, options: InProcessOptions = {}): Transport {
  const fetcher: FetchLike = (request) => target.fetch(request);
  // No bound on an answer's bytes: the server is this process's own, and a bound here would refuse what no network
  // carries (a list of thousands of imported tools passes the 16 MiB a remote answer is held to).
  const http = {
    fetch: fetcher,
    headers: options.headers,
    protocolVersion: options.protocolVersion,
    maxResponseBytes: Infinity,
  };
  // A server from createServer() knows its own basePath; any other target is served at the root.
  const prefix = ORIGIN + (target.basePath ?? "");
  const lite = () => createMcpliteTransport(prefix + (options.basePath ?? MCPLITE_BASE_PATH), http);
  const mcp = () => createMcpTransport(prefix + (options.path ?? "/mcp"), http);
  // No network: telemetry names no peer (no `server.address`, `server.port`, `network.transport`).
  switch (options.wire ?? "auto") {
    case "mcp-lite":
      return withPeer(lite(), undefined);
    case "mcp":
      return withPeer(mcp(), undefined);
    default:
      return withPeer(new AutoTransport([lite(), mcp()]), undefined);
  }
}
