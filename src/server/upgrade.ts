/**
 * Accepting a WebSocket (RFC 6455) behind a server's `fetch`, with the runtime's own upgrade: the one a
 * server lent the request (Bun's `bunWebSocket()`, Node's `attachWebSocket()`), else Deno's or a
 * Worker's (`src/runtime/<runtime>/websocket-upgrade.ts`). The route names what to do with the
 * socket's events and knows no runtime.
 *
 * @module
 */
import { upgradeOnDeno } from "../runtime/deno/websocket-upgrade.ts";
import { bunUpgradeAdvice } from "../runtime/bun/upgrade-advice.ts";
import { type AcceptOptions, lentUpgradeOf, markTakenOver, type SocketEvents } from "../runtime/socket-events.ts";
import { upgradeOnWorkers } from "../runtime/workers/websocket-upgrade.ts";

export type { AcceptedSocket, AcceptOptions, SocketEvents } from "../runtime/socket-events.ts";

/**
 * Accepts a WebSocket upgrade on the runtime at hand.
 *
 * @param request The upgrade request (a GET with `Upgrade: websocket`).
 * @param events What to do with the socket's events.
 * @param options The subprotocol selected, and the keep-alive timeout.
 * @returns The answer to give the request (101 on Deno and Workers; under a lent upgrade, one `tookOver()` recognises).
 * @throws {Error} On a runtime, or a Bun or Node server, that cannot upgrade.
 */
export function acceptWebSocket(request: Request, events: SocketEvents, options: AcceptOptions = {}): Response {
  // A server's own upgrade first: a Node server under Deno's Node compatibility lends one too.
  const upgrade = lentUpgradeOf(request);
  if (upgrade !== undefined) {
    const headers: Record<string, string> = options.protocol === undefined
      ? {}
      : { "sec-websocket-protocol": options.protocol };
    if (!upgrade(events, { ...options, headers })) throw new Error("the server refused the upgrade");
    const taken = new Response(null, { status: 204 });
    markTakenOver(taken);
    return taken;
  }
  const answer = upgradeOnDeno(request, events, options) ?? upgradeOnWorkers(request, events, options);
  if (answer !== undefined) return answer;
  throw new Error(
    bunUpgradeAdvice() ??
      "this server cannot upgrade: on Node, attachWebSocket(httpServer, server) from @mcplite/sdk/websocket",
  );
}
