/**
 * The one hold setting: how long a call that started deferred work is held while the engine follows
 * it (MCP-lite spec v0.042 §5.3, server-pushed updates; MCP's hold for a client without tasks).
 * `createServer({ holdMs })` sets it for the server; a binding may override it for its wire
 * (`mcpLiteBinding({ holdMs })`, `mcpBinding({ holdMs })`, `grpcBinding({ holdMs })`), and every
 * carrier of that wire (HTTP, SSE, stdio, WebSocket) reads it here, the one way. The overrides are the server's
 * own value (its runtime's `holds`), not a table beside it.
 *
 * @module
 */
import { type CallTarget, type Registry, registryOf } from "../core/definitions/registry.ts";

/** The wires whose bindings may override the server's hold. */
export type HoldWire = "mcp-lite" | "mcp" | "grpc";

/**
 * Records a binding's override of the server's hold for its wire (when the binding is mounted).
 *
 * @param registry The server's registry.
 * @param wire The binding's wire.
 * @param holdMs The override, in ms (checked by the binding); `undefined`: none.
 */
export function overrideHold(registry: Registry, wire: HoldWire, holdMs: number | undefined): void {
  if (holdMs !== undefined) registry.runtime.holds.set(wire, holdMs);
}

/**
 * Reads the hold a wire's calls get: its binding's override, else the server's `holdMs`.
 *
 * @param core The server's registry and its resolved `holdMs`.
 * @param wire The wire that carries the call.
 * @returns The hold, in ms (0: the promise is answered at once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Definitions } from "../core/definitions/registry.ts";
 * import { Runtime } from "../core/instance/runtime.ts";
 * import { holdFor, overrideHold } from "./hold-setting.ts";
 *
 * const registry = new Definitions(new Runtime());
 * const core = { registry, options: { holdMs: 30_000 } };
 * overrideHold(registry, "grpc", 0);
 * assert.equal(holdFor(core, "grpc"), 0);
 * assert.equal(holdFor(core, "mcp-lite"), 30_000);
 * ```
 */
export function holdFor(
  core: { readonly registry: CallTarget; readonly options: { readonly holdMs: number } },
  wire: HoldWire,
): number {
  return registryOf(core).runtime.holds.get(wire) ?? core.options.holdMs;
}
