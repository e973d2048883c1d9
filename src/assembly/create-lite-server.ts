/**
 * `createServer()` of `@mcplite/sdk/lite`: MCP-lite is the one default wire, and every optional
 * capability is a value the caller imports and passes (`longRunning`, `inputRounds`, `group`, and `cors()`,
 * `jwtAuth()` or `protectedResource()`, which carry their code as they do on `@mcplite/sdk`), so that a server
 * bundles only the bindings and capabilities it names.
 *
 * @module
 */
import { mcpLiteBinding } from "../bindings/mcplite/handler.ts";
import { edgeOf } from "../server/create-gate.ts";
import type { Capability } from "../server/server-capability.ts";
import type { AssembledServerOptions, ServerOptions } from "../server/server-options.ts";
import { refuseLongRunning } from "../server/refuse-long-running.ts";
import { Server } from "../server/server.ts";
import { NO_TOKENS } from "../core/instance/no-tokens.ts";
import type { Tokens } from "../core/instance/tokens.ts";

/**
 * Options of `createServer()` of `@mcplite/sdk/lite`: those of `@mcplite/sdk` (`cors` and `auth` typed alike,
 * `auth` made by `jwtAuth()` or `protectedResource()`), and the capabilities `longRunning`, `inputRounds` and
 * `group`, there only when given.
 */
export interface LiteServerOptions extends Omit<ServerOptions, "serverCard"> {
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
 * `group` (`server.group()`); `cors: cors({ ... })` and `auth: jwtAuth({ ... })` or `protectedResource({ ... })`.
 *
 * @param options The name, version and settings; `bindings` lists the wires (default: MCP-lite).
 * @returns The server.
 * @throws {TypeError} When the name or version is missing, two bindings claim one path, `cors` is given its options
 *   instead of `cors()`, or `auth` is a plain object (not made by `jwtAuth()` or `protectedResource()`).
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
  const assembled: AssembledServerOptions = {
    ...options,
    bindings: options.bindings ?? [mcpLiteBinding()],
    group: options.group ?? (noGroup as unknown as Capability<"group">),
    inputRounds: options.inputRounds ?? (noInputRounds as unknown as Capability<"inputRounds">),
  };
  return new Server(assembled, {
    ...edgeOf(options),
    check: options.longRunning === undefined ? refuseLongRunning : undefined,
  });
}

/** The tokens of a lite server created without `inputRounds` (nor `longRunning`): none (`NO_TOKENS`). */
function noInputRounds(): Tokens {
  return NO_TOKENS;
}

/** `server.group()` of a lite server created without `group`: refused, naming the import. */
function noGroup(): never {
  throw new TypeError('server.group() needs createServer({ ..., group }) (import { group } from "@mcplite/sdk/lite")');
}
