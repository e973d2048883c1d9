/**
 * The dev server's front: `/_dev` is the page's, every other request goes to the running child on its
 * loopback port, streamed both ways (SSE answers and request bodies alike). The dev server keeps the
 * port the user named while children come and go: a request that arrives during a restart waits for
 * the new child, and one that arrives while the module fails to load is answered 503 with the reason.
 * WebSocket upgrades are relayed (`dev-websocket.ts`), and `subscriptions/listen` streams are followed
 * across restarts (`dev-listen.ts`).
 *
 * @module
 */
import { DEV_PAGE_PATH, type DevApi } from "./dev-api.ts";
import { DEV_HOST_HEADER } from "./dev-messages.ts";
import type { DevSupervisor } from "./dev-supervisor.ts";
import { peerOf } from "../../runtime/peer.ts";
import { followListen, parseListen, type ReadyState } from "./dev-listen.ts";
import { DevSockets } from "./dev-websocket.ts";

/** How long a request waits for a restarting child, in ms. */
const RESTART_WAIT_MS = 30_000;
/** The largest listen request kept to send again, in bytes (a filter of a few URIs is far smaller). */
const LISTEN_BODY_BYTES = 64 * 1024;
/** Hop-by-hop headers (RFC 9110 §7.6.1), and those `fetch` sets itself. */
const HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length"];

/**
 * Makes the dev server's fetch handler.
 *
 * @param supervisor The child's supervisor.
 * @param api The page's side.
 * @param sockets The WebSockets relayed to the child (closed together at a restart).
 * @returns The handler: `serve()`'s listeners tell it each request's peer (`src/runtime/peer.ts`), and so
 *   does what the runtime hands `fetch` besides the request (Deno's `info.remoteAddr`, Bun's server).
 */
export function devHandler(
  supervisor: DevSupervisor,
  api: DevApi,
  sockets: DevSockets = new DevSockets(),
): (request: Request, env?: unknown) => Promise<Response> {
  return async (request, env) => {
    const url = new URL(request.url);
    if (url.pathname === DEV_PAGE_PATH || url.pathname.startsWith(`${DEV_PAGE_PATH}/`)) {
      return await api.handle(request, url, peerOf(request, env));
    }
    const state = await supervisor.settled(AbortSignal.any([request.signal, AbortSignal.timeout(RESTART_WAIT_MS)]));
    if (state.phase !== "ready") {
      const reason = state.phase === "failed"
        ? `the server module failed to load: ${
          state.failure.location ? `${state.failure.location}: ` : ""
        }${state.failure.message}`
        : "the server is still restarting";
      // JSON-RPC 2.0 §5.1's internal error, which MCP clients show; other clients read the status.
      return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32603, message: `mcplite dev: ${reason}` } }, {
        status: 503,
        headers: { "retry-after": "1" },
      });
    }
    const headers = new Headers(request.headers);
    for (const name of HOP) headers.delete(name);
    headers.set(DEV_HOST_HEADER, url.host); // fetch sends the child's own host; the child restores this one
    if (DevSockets.isUpgrade(request)) {
      const target = `${state.url.replace(/^http/, "ws")}${url.pathname}${url.search}`;
      const upgraded = await sockets.relay(request, target, headers);
      if (upgraded !== undefined) return upgraded;
    }
    // A listen stream (MCP 2026-07-28; `Mcp-Method`, SEP-2243, names it) is followed across restarts:
    // its body is kept, to send it to the next child.
    const listenBody = request.method === "POST" && request.headers.get("mcp-method") === "subscriptions/listen" &&
        Number(request.headers.get("content-length") ?? Infinity) <= LISTEN_BODY_BYTES
      ? await request.text()
      : undefined;
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    const send = (to: ReadyState, signal: AbortSignal) =>
      fetch(`${to.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers,
        body: listenBody ?? (hasBody ? request.body : undefined),
        redirect: "manual",
        signal,
        ...(hasBody && listenBody === undefined ? { duplex: "half" } : {}),
      } as RequestInit);
    let upstream: Response;
    try {
      upstream = await send(state, request.signal);
    } catch (error) {
      if (request.signal.aborted) return new Response(null, { status: 499 });
      return new Response(`mcplite dev: the server did not answer (${error})`, { status: 502 });
    }
    const answer = new Headers(upstream.headers);
    // fetch decoded the body already: its encoding and length no longer describe it.
    if (answer.has("content-encoding")) (answer.delete("content-encoding"), answer.delete("content-length"));
    const listen = listenBody === undefined ? undefined : parseListen(listenBody);
    const body = listen !== undefined && upstream.ok && answer.get("content-type")?.startsWith("text/event-stream")
      ? followListen(upstream, state, listen, supervisor, send, request.signal)
      : upstream.body;
    return new Response(body, { status: upstream.status, statusText: upstream.statusText, headers: answer });
  };
}
