/**
 * The client's address as the listener saw it, for the server's per-caller budgets
 * (`limits.perCaller`): `serve()` records it for each request it hands over (`Deno.serve`'s
 * `info.remoteAddr`, `Bun.serve`'s `server.requestIP()`); `nodeHandler()`'s requests carry their
 * socket's `remoteAddress`; and `server.fetch` given to `Deno.serve` or `Bun.serve` directly reads it
 * from their second argument. Read only when a request has no authenticated caller.
 *
 * @module
 */

/** The key under which a listener's own request objects give their peer's address (`src/runtime/node/incoming-request.ts`). */
export const PEER: unique symbol = Symbol.for("mcplite.peer") as never;

/** What `Bun.serve` hands `fetch` as its second argument: the server, which knows each request's address. */
interface AddressBook {
  requestIP(request: Request): { address: string } | null;
}

/**
 * Where a request carries the peer a listener recorded for it (its address, or the listener that can tell
 * it: Bun's), a value on the request rather than a table beside it; {@link PEER} stays the listeners' own.
 */
const RECORDED = /* @__PURE__ */ Symbol();

/**
 * Records a request's peer: its address, or the `Bun.serve` server that can tell it when asked.
 *
 * @param request The request, as the listener hands it over.
 * @param peer The address, or the Bun server.
 */
export function recordPeer(request: Request, peer: string | AddressBook): void {
  (request as { [RECORDED]?: string | AddressBook })[RECORDED] = peer;
}

/**
 * The address of a request's client, where its listener said.
 *
 * @param request The request.
 * @param env What the platform handed `fetch` besides the request (Deno's `ServeHandlerInfo`, Bun's server).
 * @returns The address, or `undefined` when no listener said (in process, a Worker).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { peerOf, recordPeer } from "./peer.ts";
 * const request = new Request("http://localhost/mcp");
 * assert.equal(peerOf(request, undefined), undefined);
 * recordPeer(request, "192.0.2.7");
 * assert.equal(peerOf(request, undefined), "192.0.2.7");
 * assert.equal(peerOf(new Request("http://localhost/"), { remoteAddr: { hostname: "::1" } }), "::1");
 * ```
 */
export function peerOf(request: Request, env: unknown): string | undefined {
  const own = (request as { [PEER]?: string })[PEER];
  if (typeof own === "string") return own;
  const peer = (request as { [RECORDED]?: string | AddressBook })[RECORDED] ?? (env as AddressBook | undefined);
  if (typeof peer === "string") return peer;
  if (typeof peer?.requestIP === "function") return peer.requestIP(request)?.address;
  const remote = (env as { remoteAddr?: { hostname?: unknown } } | undefined)?.remoteAddr?.hostname;
  return typeof remote === "string" ? remote : undefined;
}
