/**
 * The contract between a server and its bindings: a binding receives the server's core (the registry
 * and the resolved options) once, when the server is created, and returns the routes it serves on the
 * server's one `fetch`, with the checks it makes of each tool registered. The server never imports a
 * binding: `createServer({ bindings: [...] })` hands it the list.
 *
 * @module
 */
import type { ServedVersions } from "./protocol-versions.ts";
import type { Host } from "../core/call/host.ts";
import type { ProtocolError } from "../errors/error.ts";
import type { CallTarget } from "../core/definitions/registry.ts";
import type { AnyTool } from "../core/definitions/tool.ts";
import type { Icon } from "../core/definitions/icon.ts";
import type { ServerAuth } from "./auth.ts";

/** The server options with every default applied, as bindings read them. */
export interface ResolvedOptions {
  /** The server name. */
  readonly name: string;
  /** The server version. */
  readonly version: string;
  /** The title. */
  readonly title: string | undefined;
  /** What the server does (`description`), if given. */
  readonly description?: string;
  /** The server's icons (`icons`), checked, if given. */
  readonly icons?: readonly Icon[];
  /** The server's home page (`websiteUrl`), if given. */
  readonly websiteUrl?: string;
  /** The instructions. */
  readonly instructions: string | undefined;
  /** The body limit. */
  readonly maxBodyBytes: number;
  /** The nesting limit. */
  readonly maxJsonDepth: number;
  /** The longest a request body may take to arrive, in ms (0: no limit). */
  readonly bodyTimeoutMs: number;
  /** The keep-alive interval. */
  readonly heartbeatMs: number;
  /** How long a call is held open while the server follows the work it started (`holdMs`), in ms. */
  readonly holdMs: number;
  /** The prefix of every route (`basePath`), without a trailing `/`; `""` when there is none. */
  readonly basePath: string;
  /** The MCP revisions served (`protocolVersions`), by era, newest first. */
  readonly protocolVersions: ServedVersions;
  /**
   * How the server authenticates callers, as a binding may describe it (the OpenAPI binding's security
   * scheme); `undefined` without `auth`. The verifier is not in it: the server's gate alone calls it.
   */
  readonly auth:
    | Pick<ServerAuth, "resource" | "authorizationServers" | "scopesSupported" | "requiredScopes">
    | undefined;
}

/** What every binding reads: the server's registry and its resolved options. */
export interface ServerCore {
  /** The tools, resources, prompts, middleware and server-wide state. */
  readonly registry: CallTarget;
  /** The resolved server options. */
  readonly options: ResolvedOptions;
}

export { type Host, NO_HOST, withCaller } from "../core/call/host.ts";

/** How the package's own bindings name a route's handler (`Route["handle"]`). */
export type RouteHandler = Route["handle"];

/** One route a binding serves. */
export interface Route {
  /**
   * Answers the route's requests: each with what came with it (the platform's values, the caller the
   * gate verified). It may answer at once (a `Response`, no promise) where nothing had to be waited for.
   */
  readonly handle: (request: Request, host: Host) => Response | Promise<Response>;
  /**
   * Answers a request the server's gate refused before `handle` saw it (the Host or Origin check, or
   * authentication: then with its `WWW-Authenticate` challenge added), in the shape of the route's wire: a JSON-RPC error on MCP and MCP-lite, an error envelope on Webtools.
   * `id` is the refused request's JSON-RPC id, read for a route that {@link Route.jsonRpc speaks JSON-RPC}
   * when authentication refused it (`null` when unreadable).
   */
  readonly refuse: (error: ProtocolError, id?: string | number | null) => Response;
  /**
   * Whether the route's bodies are JSON-RPC requests: a request authentication refused then has its id
   * read (a small body only, `src/server/refused-id.ts`) and echoed in the error.
   */
  readonly jsonRpc?: boolean;
  /**
   * A route whose URLs are capabilities (signal URLs: signed, expiring, single use): the server's `auth` does not ask
   * its callers for a token, as a webhook's sender has none; the Host and Origin guard still applies.
   */
  readonly capability?: true;
  /** The HTTP methods it answers (`"POST"`, `"GET, HEAD"`), for CORS preflights; the one asked for when absent. */
  readonly methods?: string;
  /**
   * The MCP transport the route is an endpoint of (`"streamable-http"`, MCP's own): the server card
   * (SEP-2127) lists it among the server's `remotes` and serves itself beside it.
   */
  readonly remote?: "streamable-http";
}

/** A binding mounted on a server. */
export interface MountedBinding {
  /**
   * The routes it serves, by path. A path ending in `/*` matches every path under it (e.g. `/webtools/*` matches
   * `/webtools/2`); other paths match exactly.
   */
  readonly routes: ReadonlyMap<string, Route>;
  /**
   * Checks a tool as it is registered (e.g. the MCP binding's `x-mcp-header` declarations): throws a
   * `TypeError` naming the tool to refuse it, so a mistake fails at registration, not on a request.
   */
  readonly checkTool?: (tool: AnyTool) => void;
}

/**
 * A binding: given the server's core, what it serves. `createServer({ bindings })` takes a list of
 * them (by default MCP-lite and MCP).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, type Binding } from "../../mod.ts";
 * const health: Binding = () => ({
 *   routes: new Map([["/health", {
 *     handle: () => Promise.resolve(Response.json({ ok: true })),
 *     refuse: (error) => Response.json({ error: error.message }, { status: 403 }),
 *   }]]),
 * });
 * const server = createServer({ name: "demo", version: "1.0.0", bindings: [health] });
 * assert.deepEqual(await (await server.fetch(new Request("http://localhost/health"))).json(), { ok: true });
 * ```
 */
export type Binding = (core: ServerCore) => MountedBinding;
