/**
 * Whether a hosting platform that routes requests by their `Host` delivered a request, rather than a
 * socket on this machine: then a DNS-rebinding page cannot reach the server, so the default Host check
 * has nothing to protect.
 *
 * @module
 */
import { isLoopbackAddress } from "../internal/loopback.ts";

/**
 * Tells whether Cloudflare's edge delivered a request to a Worker. Cloudflare routes to a Worker only
 * the host names it is deployed on (its `workers.dev` subdomain, its routes and custom domains), and a
 * rebinding page's host name is none of them. The Worker is known by the `ExecutionContext` workerd
 * passes as `fetch`'s third argument (Workers Runtime APIs, Context: `passThroughOnException` is
 * Cloudflare's own). A request from this machine is not delivered by the edge: `wrangler dev` runs
 * workerd on localhost and sets `CF-Connecting-IP` (Cloudflare, HTTP request headers) to the loopback
 * address its client connected from, which the edge never does.
 *
 * @param request The request.
 * @param ctx `fetch`'s third argument.
 * @returns `true` when the platform routed the request by its host name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routedByHost } from "./routed-by-host.ts";
 *
 * const worker = { waitUntil() {}, passThroughOnException() {} };
 * const visitor = (ip: string) => new Request("https://w.example.workers.dev/mcp", { headers: { "cf-connecting-ip": ip } });
 * assert.equal(routedByHost(visitor("203.0.113.7"), worker), true); // deployed
 * assert.equal(routedByHost(visitor("127.0.0.1"), worker), false); // wrangler dev
 * assert.equal(routedByHost(visitor("203.0.113.7"), undefined), false); // Deno.serve, Bun.serve, a Node adapter
 * ```
 */
export function routedByHost(
  request: { readonly headers: { get(name: string): string | null } },
  ctx: unknown,
): boolean {
  if (typeof (ctx as { passThroughOnException?: unknown } | undefined)?.passThroughOnException !== "function") {
    return false;
  }
  const client = request.headers.get("cf-connecting-ip");
  return client === null || !isLoopbackAddress(client);
}
