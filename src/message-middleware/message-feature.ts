/**
 * What an extension with message middleware (`defineExtension().intercept()`) installs on the registry that serves
 * it, as its feature joins (`admit`, `src/core/definitions/feature.ts`): the chain of every such extension, in the order served,
 * and the code that runs it on each layer that carries messages (`http`: the MCP binding's POSTs; `connection`:
 * stdio and a WebSocket). A binding reads it under {@link MESSAGES}, one property per request or connection, so a
 * server none of whose extensions intercepts bundles no runner and runs nothing.
 *
 * @module
 */
import type { MessageMiddleware } from "./message-middleware.ts";

/** The key of a registry's {@link MessageLayer}. */
export const MESSAGES: unique symbol = /* @__PURE__ */ Symbol("messages");

/** The middleware a registry's served extensions brought, and the runner of each layer. */
export interface MessageLayer {
  /** Every extension's middleware, in the order the extensions were served, each one's in the order added. */
  readonly chain: MessageMiddleware[];
  /** The MCP binding's runner of a POST (`src/bindings/mcp/http-messages.ts`). */
  readonly http: unknown;
  /** A connection's runner (`./connection-messages.ts`). */
  readonly connection: unknown;
}

/**
 * A registry's message layer, if a served extension installed one.
 *
 * @param registry The registry.
 * @returns The layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MESSAGES, messagesOf } from "./message-feature.ts";
 * assert.equal(messagesOf({}), undefined);
 * const layer = { chain: [], http: undefined, connection: undefined };
 * assert.equal(messagesOf({ [MESSAGES]: layer }), layer);
 * ```
 */
export function messagesOf(registry: object): MessageLayer | undefined {
  return (registry as { [MESSAGES]?: MessageLayer })[MESSAGES];
}
