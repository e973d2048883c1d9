/**
 * What came with a request besides itself: the platform's values and the authenticated caller. A
 * carrier builds one per request (or shares {@link NO_HOST}) and hands it whole to the pipeline, which
 * gives handlers `ctx.env` and `ctx.auth` from it and keeps deferred work alive with its `waitUntil`.
 *
 * @module
 */
/** Who the caller is: what the server's authentication (or middleware) learned from its credential. */
export interface AuthInfo {
  /** The authenticated principal (a JWT's `sub`), e.g. a user id. */
  subject?: string;
  /** The OAuth client acting for it (`client_id` or `azp`). */
  clientId?: string;
  /** The scopes granted. */
  scopes?: string[];
  /** The token's claims, when it is a JWT. */
  claims?: Record<string, unknown>;
  /**
   * The raw credential. Never forward it to another service: MCP 2025-11-25, Authorization, forbids
   * token passthrough (get a token issued for that service instead).
   */
  token?: string;
  /** Anything else. */
  [key: string]: unknown;
}

/**
 * What the platform handed `fetch` besides the request: a Worker's `env` and `ExecutionContext`
 * (`export default { fetch: server.fetch }`), or whatever a framework passes on (Hono's `app.fetch`,
 * `(request, env, ctx)` from a route: Hono's `mount(server.fetch, (c) => [{ ...c.env, user: c.get("user") }])`);
 * and the caller the server's gate verified.
 */
export interface Host {
  /** The platform's bindings and variables (`fetch`'s second argument), read by handlers as `ctx.env`. */
  readonly env?: Readonly<Record<string, unknown>>;
  /** Keeps work alive past the response (a Worker's `ctx.waitUntil`); `undefined` where the process stays up anyway. */
  readonly waitUntil?: (work: Promise<unknown>) => void;
  /** The caller the server's authentication verified (`createServer({ auth })`), handed to the pipeline as `ctx.auth`. */
  readonly auth?: AuthInfo;
  /**
   * Who the caller is for the server's budgets (`limits.perCaller`): its authenticated subject, else its
   * address as the listener saw it. Set by the server when it admits the request.
   */
  readonly caller?: string;
  /**
   * Takes the request out of the server's request budgets (`limits.calls`) for the rest of its life, once: for a
   * long-lived request that keeps a budget of its own (SEP-3415 "Push": `events/stream`). Set by the server when it
   * admits the request (a connection's host, for its requests, by their id); absent where no budget took it.
   */
  readonly exempt?: (id: string | number | null) => void;
}

/** The host of a request that came with nothing besides itself (Deno.serve, Bun.serve, Node adapters, stdio). */
export const NO_HOST: Host = Object.freeze({ env: undefined, waitUntil: undefined });

/**
 * The same host with the caller the gate (or middleware) verified.
 *
 * @param host What came with the request.
 * @param auth The caller.
 * @returns The host, with `auth` set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_HOST, withCaller } from "./host.ts";
 * assert.equal(withCaller(NO_HOST, { subject: "ada" }).auth?.subject, "ada");
 * ```
 */
export function withCaller(host: Host, auth: AuthInfo | undefined): Host {
  return { ...host, auth };
}
