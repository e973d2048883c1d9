/**
 * DNS-rebinding protection: the `Host` and `Origin` checks run before any binding sees a request.
 * A rebinding page attacks a server on the user's own machine or network, so by default the check
 * keeps to the loopback names there, and steps aside where a platform routes requests by their host
 * name (a deployed Cloudflare Worker): there the page cannot reach the server.
 *
 * @module
 */
import { ProtocolError } from "../errors/error.ts";
import { hostnameOf } from "../internal/url.ts";
import { routedByHost } from "./routed-by-host.ts";
import { echoed } from "../internal/echo.ts";

const LOOPBACK = ["localhost", "127.0.0.1", "::1"];

/** Lower-cases a configured host and drops brackets and port: `[::1]`, `::1`, `Example.com:443`. */
function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith("[") || lower.includes("//")) return hostnameOf(lower);
  const colons = lower.split(":").length - 1;
  return colons === 1 ? lower.slice(0, lower.indexOf(":")) : lower; // more than one: a bare IPv6 address
}

/**
 * Checks a request's host and origin; throws when they are not allowed. Takes the URL the caller read
 * already (runtimes build `Request.url` anew on each access), and `fetch`'s third argument, which tells
 * a Worker's requests apart. Of the request it reads only headers (`Origin`; on a Worker, `cf-connecting-ip`):
 * a `Request` is one, and a listener that has no `Request` (`serveGrpc()`) passes its own.
 */
export type RequestGuard = (
  request: { readonly headers: { get(name: string): string | null } },
  url: string,
  ctx?: unknown,
) => void;

/**
 * Creates the guard for the given allow-lists.
 *
 * @param allowedHosts Host names, or `"*"`; by default the loopback names, and on a deployed Worker the
 *   host name Cloudflare routed the request by.
 * @param allowedOrigins Origins, or `"*"`; defaults to origins on an allowed host.
 * @returns The guard.
 */
export function createRequestGuard(
  allowedHosts: string[] | "*" | undefined,
  allowedOrigins: string[] | "*" | undefined,
  corsAllows?: (origin: string) => boolean,
): RequestGuard {
  const anyHost = allowedHosts === "*";
  const hosts = new Set((anyHost ? [] : allowedHosts ?? LOOPBACK).map(normalizeHost));
  const anyOrigin = allowedOrigins === "*";
  const origins = new Set(Array.isArray(allowedOrigins) ? allowedOrigins.map((o) => o.toLowerCase()) : []);
  // `scheme://authority/` of the last URL whose host passed: requests to a server nearly always name
  // the same authority, so one `startsWith` usually replaces the parse. The prefix ends at the `/` that
  // closes the authority, so no other authority can match it.
  let passed = "";
  const byDefault = allowedHosts === undefined;
  return function guardRequest(request, url, ctx) {
    // Listed hosts are checked everywhere; the default steps aside where the platform routes by host.
    const routed = byDefault && ctx !== undefined && routedByHost(request, ctx);
    if (!anyHost && !routed) {
      if (passed === "" || !url.startsWith(passed)) {
        const host = hostnameOf(url);
        if (!hosts.has(host)) {
          throw new ProtocolError(
            "forbidden",
            `Host "${echoed(host)}" is not allowed; list it in the server's allowedHosts option`,
          );
        }
        const slash = url.indexOf("/", url.indexOf("//") + 2);
        if (slash !== -1) passed = url.slice(0, slash + 1);
      }
    }
    const origin = request.headers.get("origin");
    if (origin === null || anyOrigin) return;
    const lower = origin.toLowerCase();
    if (origins.has(lower) || corsAllows?.(lower)) return; // an origin CORS lets in is an allowed Origin
    // By default an origin is allowed when its host is (a browser page served by this same app).
    if (allowedOrigins === undefined && lower !== "null") {
      const host = hostnameOf(lower);
      if (anyHost || (routed ? host === hostnameOf(url) : hosts.has(host))) return;
    }
    throw new ProtocolError("forbidden", `Origin "${echoed(origin)}" is not allowed`);
  };
}
