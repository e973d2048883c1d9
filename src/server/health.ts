/**
 * The health endpoint for load balancers (`createServer({ health: true })`): `GET /healthz` answers 200
 * with `{ status: "ok", name, version, uptime }` (the `status` probes that read a body look for), before
 * the gate, so that a probe needs no token and may address the server by IP (any `Host`).
 *
 * @module
 */
import { pathOf } from "../internal/url.ts";
import type { ServerFetch } from "./fetch.ts";
import { normalisePath } from "./server-options.ts";
import { jsonInit, responseInit } from "./responses.ts";

/** The path served by `health: true`. */
export const HEALTH_PATH = "/healthz";

const HEALTH_INIT = jsonInit({ "cache-control": "no-store" });
const NOT_ALLOWED_INIT = responseInit({ allow: "GET, HEAD" }, 405);

/**
 * Serves the health endpoint in front of a server's `fetch`; every other path goes on to it.
 *
 * @param fetch The server's fetch (its gate and routes).
 * @param server The name and version the endpoint reports.
 * @param option The `health` option.
 * @returns The fetch, unchanged when the option is off.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withHealth } from "./health.ts";
 * const fetch = withHealth(() => Promise.resolve(new Response(null, { status: 404 })), { name: "a", version: "1" }, true);
 * const response = await fetch(new Request("http://10.0.0.5:8080/healthz"));
 * assert.equal(response.status, 200);
 * assert.equal((await response.json()).name, "a");
 * ```
 */
export function withHealth(
  fetch: ServerFetch,
  server: { readonly name: string; readonly version: string },
  option: boolean | { path?: string } | undefined,
): ServerFetch {
  if (!option) return fetch;
  const path = option === true || option.path === undefined ? HEALTH_PATH : normalisePath(option.path);
  const started = performance.now();
  const { name, version } = server;
  return function fetchWithHealth(request, env, ctx) {
    if (pathOf(request.url) !== path) return fetch(request, env, ctx);
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return Promise.resolve(new Response(null, NOT_ALLOWED_INIT));
    const uptime = Math.floor((performance.now() - started) / 1000);
    const body = method === "HEAD" ? null : JSON.stringify({ status: "ok", name, version, uptime });
    return Promise.resolve(new Response(body, HEALTH_INIT));
  };
}
