/**
 * The optional parts of a server's edge, each brought by the value that enables it: CORS (`cors()`) and OAuth
 * (a `ServerAuth` from `jwtAuth()` or `protectedResource()`, which carries its code), so that a server without them
 * bundles none of their code.
 *
 * @module
 */
import type { AnyTool } from "../core/definitions/tool.ts";
import type { AuthInfo } from "../core/call/call-context.ts";
import type { ServerAuth } from "./auth.ts";
import type { ResolvedOptions, Route } from "./binding-contract.ts";
import type { Cors } from "./cors.ts";
import type { RequestGuard } from "./guard.ts";
import type { Capability } from "./server-capability.ts";
import type { ObservedEdge } from "./edge-observer.ts";

/** What a Worker (or a framework) passes as `fetch`'s third argument. */
export interface ExecutionContextLike {
  /** Keeps work alive past the response. */
  waitUntil(work: Promise<unknown>): void;
}

/** A server's `fetch`. */
export type ServerFetch = (request: Request, env?: unknown, ctx?: ExecutionContextLike) => Promise<Response>;

/** An answer the gate gives by itself (the metadata document), for a carrier to write on its wire. */
export interface GateAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body; `null` for none (a `HEAD`). */
  readonly body: string | null;
}

/** Cross-origin access (Fetch Standard §3.2), built by `cors()`: the policy and the `fetch` it wraps. */
export interface CorsEdge extends Capability<"cors"> {
  /** The policy. */
  readonly cors: Cors;
  /**
   * Wraps a server's `fetch`: answers preflights for served routes, marks every other answer.
   *
   * @param fetch The server's plain `fetch`.
   * @param routes The routes it serves, by full path.
   * @param guard The Host and Origin check, which preflights pass too.
   * @returns The wrapped `fetch`.
   */
  serve(fetch: ServerFetch, routes: ReadonlyMap<string, Route>, guard: RequestGuard): ServerFetch;
}

/**
 * The server as an OAuth 2.1 resource server (MCP 2025-11-25, Authorization), built from a `ServerAuth`:
 * authentication, challenges (RFC 6750 §3) and the Protected Resource Metadata (RFC 9728 §3).
 */
export interface AuthEdge extends Capability<"oauth"> {
  /** The options it was built from. */
  readonly auth: ServerAuth;
  /** Authenticates a request (see `Gate.authenticate`). */
  authenticate(request: Request): Promise<AuthInfo | undefined>;
  /** The `WWW-Authenticate` value for a refusal at an endpoint (see `Gate.challenge`). */
  challenge(error: unknown, path: string): string | undefined;
  /** The nonce a refusal asks a DPoP client to use (see `Gate.dpopNonce`). */
  dpopNonce(error: unknown): string | undefined;
  /** Answers a request for the metadata (see `Gate.metadata`). */
  metadata(method: string, path: string): GateAnswer | undefined;
  /**
   * Protects every route with authentication and adds the metadata routes.
   *
   * @param routes The routes, by full path.
   * @param gate The server's gate, told of each refusal (`gate.refused`).
   * @returns The protected routes.
   */
  protect(routes: ReadonlyMap<string, Route>, gate?: ObservedEdge): Map<string, Route>;
}

/** The optional parts of the edge a server was given. */
export interface Edge {
  /** CORS, when the server has `cors`. */
  readonly cors?: CorsEdge;
  /** OAuth, when the server has `auth`. */
  readonly auth?: AuthEdge;
  /**
   * The server card (`src/server/server-card.ts`), which `createServer()` of `@mcplite/sdk` brings unless
   * `serverCard: false`: wraps the server's `fetch`, given its resolved options, its routes and its Host check.
   */
  readonly card?: (
    fetch: ServerFetch,
    server: ResolvedOptions,
    routes: ReadonlyMap<string, Route>,
    guard: RequestGuard,
  ) => ServerFetch;
  /**
   * What the entry point checks each tool for besides the bindings' checks: `createServer()` of
   * `@mcplite/sdk/lite` refuses a long-running tool when it was not given `longRunning`.
   */
  readonly check?: (tool: AnyTool) => void;
}
