/**
 * Why `acceptWebSocket()` could not upgrade a request on Bun: a file of its own, without imports, so that the
 * server's upgrade does not share a module with `serve()`'s lazily loaded Bun listener.
 *
 * @module
 */

/**
 * Why a request on Bun could not upgrade: its `Bun.serve` was not given `bunWebSocket()`.
 *
 * @returns The advice, or `undefined` when this is not Bun.
 */
export function bunUpgradeAdvice(): string | undefined {
  return (globalThis as { Bun?: unknown }).Bun === undefined
    ? undefined
    : "Bun.serve needs the WebSocket handlers: serve(server), or Bun.serve({ ...bunWebSocket(server) })";
}
