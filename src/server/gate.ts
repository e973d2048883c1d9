/**
 * The gate: the one edge of a server, in front of every binding and the call pipeline. It checks Host and Origin
 * (DNS-rebinding protection), authenticates the caller (`ctx.auth`, or a refusal carrying its challenge), answers
 * CORS and serves the Protected Resource Metadata (RFC 9728 §3). Built once per server; every carrier calls it and
 * maps its decisions to its wire: `server.fetch` (401/403 with `WWW-Authenticate`), `serveGrpc()`
 * (`UNAUTHENTICATED`/`PERMISSION_DENIED`), `serveStdio()`, and listeners attached with `attachListener()`.
 *
 * @module
 */
import type { AuthInfo } from "../core/call/call-context.ts";
import type { ResultStore } from "../jobs/result-store.ts";
import type { ServerAuth } from "./auth.ts";
import type { Capability } from "./server-capability.ts";
import type { Edge } from "./edge.ts";
import type { ProtocolError } from "../errors/error.ts";
import { createRequestGuard } from "./guard.ts";

/** The server options the gate is built from (see `ServerOptions` for each). */
export interface GateOptions {
  /** The Host names requests may name, or `"*"`; the loopback names by default (any on a deployed Worker). */
  readonly allowedHosts?: string[] | "*";
  /** The Origins browsers may send, or `"*"`; by default origins on an allowed host. */
  readonly allowedOrigins?: string[] | "*";
  /** Cross-origin access for browser pages: `cors({ origins })`. */
  readonly cors?: Capability<"cors">;
  /** The server as an OAuth 2.1 resource server. */
  readonly auth?: ServerAuth;
  /**
   * Where used DPoP proofs are remembered (RFC 9449 §11.1), when `auth.dpop` is set: the server's result
   * store, shared by its instances (default: one in memory, for this instance).
   */
  readonly resultStore?: ResultStore;
}

export type { GateAnswer } from "./edge.ts";

/** The server's edge, as every carrier calls it. Build it with `createGate()` (from the options) or {@link assembleGate}. */
export interface Gate {
  /**
   * Checks a request's Host and Origin (DNS-rebinding protection). Takes the URL the caller read
   * already (runtimes build `Request.url` anew on each access) and, from `fetch`, its third argument
   * (a Worker's `ExecutionContext`); other listeners pass none, and their requests keep the check.
   *
   * @throws {ProtocolError} `forbidden`, for a Host or Origin that is not allowed.
   */
  readonly guard: (
    request: { readonly headers: { get(name: string): string | null } },
    url: string,
    ctx?: unknown,
  ) => void;
  /**
   * Observes the requests the edge refuses before any method runs (request middleware never sees them):
   * every carrier calls it with each refusal, its request and the status it answered. Set by the
   * server when a middleware that observes the edge is added (`otel()`); unset, refusals cost nothing more.
   *
   * @param error What the request was refused with: its `code` names the failure (`unauthenticated`).
   * @param request The refused request's method, URL and headers (its body is not read).
   * @param status The HTTP status it was answered with.
   */
  refused?: (
    error: ProtocolError,
    request: { readonly method: string; readonly url: string; readonly headers: Headers },
    status: number,
  ) => void;
  /** Cross-origin access (Fetch Standard §3.2), when the server has `cors`: whether an origin may call. */
  readonly cors: { allows(origin: string): boolean } | undefined;
  /** The server's authentication, when it has `auth`; without it every request passes, with no caller. */
  readonly auth: ServerAuth | undefined;
  /**
   * Authenticates a request from its `Authorization` header (RFC 6750 §2.1; with `auth.dpop`, the `DPoP`
   * scheme and its proof, RFC 9449 §7.1), and checks the scopes every request needs. The caller it
   * resolves with is the request's own object: hand it to the pipeline as `ctx.auth` (a binding's
   * `host.auth`). A call refused for a scope its caller lacks throws `permission_denied`: ask
   * {@link Gate.challenge} with that error for the step-up challenge.
   *
   * @param request The request (its headers and URL; its body is not read).
   * @returns The caller, or `undefined` when the server has no `auth`.
   * @throws {ProtocolError} (rejects) `unauthenticated` or `permission_denied`, carrying its challenge
   *   for {@link Gate.challenge}; no message holds the token.
   */
  authenticate(request: Request): Promise<AuthInfo | undefined>;
  /**
   * The `WWW-Authenticate` value for a refusal at an endpoint, read from the error itself (RFC 6750 §3,
   * pointing at the metadata as RFC 9728 §5.1 says). With `auth.dpop`, a `DPoP` challenge (RFC 9449
   * §7.1): alone when DPoP is required or the refusal is about a DPoP presentation, else after the
   * `Bearer` one. For a call refused for a scope its caller lacks (`permission_denied` naming the
   * `requiredScopes`), the step-up challenge (MCP 2025-11-25, Authorization, Scope Challenge Handling).
   *
   * @param error What the request or call was refused with.
   * @param path The endpoint's path, e.g. `/mcp` (the metadata URL follows it, RFC 9728 §3.1).
   * @returns The challenge, or `undefined` when the error calls for none or the server has no `auth`.
   */
  challenge(error: unknown, path: string): string | undefined;
  /**
   * The nonce a refusal asks a DPoP client to use, for the `DPoP-Nonce` response header (RFC 9449 §8.1;
   * in the error's metadata on gRPC), beside the `use_dpop_nonce` challenge.
   *
   * @param error What the request was refused with.
   * @returns The nonce, or `undefined` for any other refusal.
   */
  dpopNonce(error: unknown): string | undefined;
  /**
   * Answers a request for the Protected Resource Metadata (RFC 9728 §3): at the well-known path, or at
   * it followed by an endpoint's path (§3.1).
   *
   * @param method The request's method (`GET` and `HEAD` are answered, others get 405).
   * @param path The request's path.
   * @returns The answer, or `undefined` when the path is not a metadata path or the server has no `auth`.
   */
  metadata(
    method: string,
    path: string,
  ):
    | { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string | null }
    | undefined;
}

/**
 * Assembles a server's gate from its Host and Origin allow-lists and the optional parts of its edge,
 * built already (`cors()`, a `ServerAuth`'s edge): what `Server` does, so that it bundles no part it is not given.
 *
 * @param options The Host and Origin allow-lists.
 * @param edge CORS and OAuth, when the server has them.
 * @returns The gate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assembleGate } from "./gate.ts";
 *
 * const gate = assembleGate({}, {});
 * assert.equal(gate.auth, undefined);
 * assert.equal(await gate.authenticate(new Request("http://localhost/mcp")), undefined);
 * ```
 */
export function assembleGate(options: Pick<GateOptions, "allowedHosts" | "allowedOrigins">, edge: Edge): Gate {
  const cors = edge.cors?.cors;
  const guard = createRequestGuard(options.allowedHosts, options.allowedOrigins, cors?.allows);
  const auth = edge.auth;
  return auth === undefined
    ? {
      guard,
      cors,
      auth,
      authenticate: () => Promise.resolve(undefined),
      challenge: () => undefined,
      dpopNonce: () => undefined,
      metadata: () => undefined,
    }
    : { ...auth, guard, cors, auth: auth.auth };
}
