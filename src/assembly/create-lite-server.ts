/**
 * `createServer()` of `@mcplite/sdk/lite`: MCP-lite is the one default wire, and every optional
 * capability is a value the caller imports and passes (`longRunning`, `inputRounds`, `group`,
 * `cors()`, `oauth()`), so that a server bundles only the bindings and capabilities it names.
 *
 * @module
 */
import { mcpLiteBinding } from "../bindings/mcplite/handler.ts";
import type { AuthEdge, CorsEdge } from "../server/edge.ts";
import type { Capability } from "../server/server-capability.ts";
import type { AssembledServerOptions, ServerOptions } from "../server/server-options.ts";
import { refuseLongRunning } from "../server/refuse-long-running.ts";
import { Server } from "../server/server.ts";

/**
 * Options of `createServer()` of `@mcplite/sdk/lite`: those of `@mcplite/sdk`, but `cors` and `auth`
 * take the values `cors()` and `oauth()` build (the main entry's take their options), and the
 * capabilities `longRunning`, `inputRounds` and `group` are there only when given.
 */
export interface LiteServerOptions extends Omit<ServerOptions, "cors" | "auth" | "serverCard"> {
  /** Cross-origin access for browser pages: `cors({ origins })`. */
  cors?: Capability<"cors">;
  /** The server as an OAuth 2.1 resource server: `oauth({ resource, authorizationServers, verify })`. */
  auth?: Capability<"oauth">;
  /**
   * Long-running support (`longRunning`): lets tools answer "not done yet" (`.redeem()`, `.longRunning()`,
   * `ctx.promise()`, `ctx.defer()`), lists the `redeem` system tool and serves MCP tasks. Without it, registering a
   * long-running tool throws naming the fix; `createServer()` of `@mcplite/sdk` always has it.
   */
  longRunning?: Capability<"longRunning">;
  /**
   * Input-round support (`inputRounds`): signs the `requestState` of a call whose handler asks the client
   * (`ctx.elicit()`, `ctx.sample()`, `ctx.roots()`; `longRunning`'s tokens sign them too). Without it, a handler that
   * asks fails naming the fix.
   */
  inputRounds?: Capability<"inputRounds">;
  /** Group support (`group`): what `server.group()` runs. Without it, `server.group()` throws naming the fix. */
  group?: Capability<"group">;
}

/**
 * Creates a server on MCP-lite (`/mcp-lite/v1`) unless `bindings` lists the wires. Everything else is
 * `createServer()` of `@mcplite/sdk`, with each optional capability passed as a value: `longRunning`
 * (`.redeem()`, `.longRunning()`), `inputRounds` (`ctx.elicit()`, `ctx.sample()`, `ctx.roots()`),
 * `group` (`server.group()`), `cors: cors({ ... })` and `auth: oauth({ ... })`.
 *
 * @param options The name, version and settings; `bindings` lists the wires (default: MCP-lite).
 * @returns The server.
 * @throws {TypeError} When the name or version is missing, two bindings claim one path, or `cors` or
 *   `auth` is given its options instead of `cors()` or `oauth()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer, mcpBinding, mcpLiteBinding } from "../lite/mod.ts";
 *
 * // MCP as well, named by the caller: only then is its binding bundled.
 * const server = createServer({ name: "both", version: "1.0.0", bindings: [mcpLiteBinding(), mcpBinding()] });
 * const ping = await server.fetch(new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
 * }));
 * assert.equal(ping.status, 200);
 * ```
 */
// deno-lint-ignore ban-types
export function createServer(options: LiteServerOptions): Server<{}> {
  // What cors() and oauth() built (checked here: a plain object of options is refused, naming the fix).
  const cors = options.cors as CorsEdge | undefined;
  const auth = options.auth as AuthEdge | undefined;
  if (cors !== undefined && typeof cors.serve !== "function") throw new TypeError(built("cors", "cors"));
  if (auth !== undefined && typeof auth.protect !== "function") throw new TypeError(built("auth", "oauth"));
  const assembled: AssembledServerOptions = {
    ...options,
    cors: undefined,
    auth: auth?.auth,
    bindings: options.bindings ?? [mcpLiteBinding()],
    group: options.group ?? (noGroup as unknown as Capability<"group">),
  };
  return new Server(assembled, {
    cors,
    auth,
    check: options.longRunning === undefined ? refuseLongRunning : undefined,
  });
}

/** The error of an option given its settings where the lite entry takes the value its function builds. */
function built(option: string, build: string): string {
  return `createServer({ ${option} }) of @mcplite/sdk/lite takes ${build}({ ... }), not its options ` +
    `(import { ${build} } from "@mcplite/sdk/lite")`;
}

/** `server.group()` of a lite server created without `group`: refused, naming the import. */
function noGroup(): never {
  throw new TypeError('server.group() needs createServer({ ..., group }) (import { group } from "@mcplite/sdk/lite")');
}
