/**
 * `serve()` on Node, and on Deno and Bun with `httpServer: "node:http"`: a `node:http` server (HTTP/1.1 with keep-alive) answering through {@link answerNode},
 * and its upgrades through `attachWebSocket()` (the `ws` package, an optional peer, loaded at the first
 * upgrade). `node:http` is reached at run time through `process.getBuiltinModule`, never imported, so a
 * bundle for Deno, Bun, a browser or a Worker does not pull it in.
 *
 * @module
 */
import { answerNode } from "./answer.ts";
import { answerLazily } from "./outgoing-response.ts";
import type { NodeRequest, NodeResponse } from "./node-types.ts";
import { attachWebSocket, type NodeUpgradeServer } from "./websocket-upgrade.ts";
import type { Bound, Fetchable, Lent, ListenAt } from "../listen-types.ts";

/** A `node:http` `Server`, as much of it as `serve()` uses. */
interface HttpServer extends NodeUpgradeServer {
  listen(options: { port: number; host: string; reusePort?: boolean }, done: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  address(): { port: number } | string | null;
  close(done: () => void): unknown;
  closeIdleConnections(): void;
  on(...upgrade: Parameters<NodeUpgradeServer["on"]>): unknown;
  on(event: "connection", listener: (socket: NodeSocket) => void): unknown;
  keepAliveTimeout: number;
}

/** A connection's socket, as far as closing uses it. */
interface NodeSocket {
  destroy(): unknown;
  once(event: "close", listener: () => void): unknown;
}

/** The options of `http.createServer` that `serve()` sets. */
interface HttpServerOptions {
  headersTimeout?: number;
  requestTimeout?: number;
  connectionsCheckingInterval?: number;
}

interface NodeHttp {
  createServer(
    options: HttpServerOptions,
    listener: (req: NodeRequest, res: NodeResponse) => void,
  ): HttpServer;
}

/**
 * How long an idle keep-alive connection stays open, in ms: Fastify's default. Node's own 5 s is shorter than the
 * idle time many clients and load balancers keep one for (AWS's 60 s), and a request a client sends on a
 * connection as Node closes it is reset unanswered (RFC 9112 §9.3.1: only idempotent requests may be sent again).
 */
const KEEP_ALIVE_MS = 72_000;

/** Node's own `requestTimeout` default: the whole request within 5 minutes. */
const NODE_REQUEST_TIMEOUT_MS = 300_000;

/**
 * The server's deadlines as `node:http`'s: a request's head must arrive within `bodyTimeoutMs` (Node
 * answers 408 and closes the connection), checked often enough that the cut comes on time (Node looks
 * at its connections every `connectionsCheckingInterval`, 30 s by default). The body's own deadline
 * is the SDK's (`read-body.ts`).
 */
function nodeDeadlines(app: Fetchable, lent: Lent): HttpServerOptions {
  const ms = lent.bodyTimeoutOf(app);
  if (ms === undefined) return {};
  return {
    headersTimeout: ms,
    requestTimeout: Math.max(NODE_REQUEST_TIMEOUT_MS, ms),
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(ms / 10))),
  };
}

/**
 * Binds `app` with a `node:http` server.
 *
 * @param app The fetch handler.
 * @param at The port (0: a free one), the interface, and whether to share the port (`SO_REUSEPORT`).
 * @param lent What it shares with the server (`serve()` lends it).
 * @returns The bound server, once it listens.
 */
export async function listen(app: Fetchable, at: ListenAt, lent: Lent): Promise<Bound> {
  const { port, hostname, reusePort } = at;
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const http = process?.getBuiltinModule?.("node:http") as NodeHttp | undefined;
  if (http === undefined) throw new Error("serve() needs Node 22.3 or later (process.getBuiltinModule)");
  answerLazily(lent.answers);
  let closing = false;
  // Connections that have not sent a request yet: Node's closeIdleConnections() leaves them (only a connection whose
  // answer went out is idle), and close() waited for them, for as long as the client kept one. undici's fetch opens
  // one beside a request its caller aborted, and kept it unused: a graceful close never resolved on Node.
  const fresh = new Set<NodeSocket>();
  const server = http.createServer(nodeDeadlines(app, lent), (req, res) => {
    fresh.delete(req.socket as NodeSocket);
    void answerNode(app, req, res, req.url ?? "/", lent).finally(() => {
      // Closing: a connection whose last answer went out is idle now, and closes (graceful shutdown).
      if (closing) server.closeIdleConnections();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.on("connection", (socket) => {
    if (closing) return void socket.destroy();
    fresh.add(socket);
    socket.once("close", () => fresh.delete(socket));
  });
  const sockets = new Set<NodeSocket>();
  server.on("upgrade", (_request, socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  attachWebSocket(server, app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host: hostname, reusePort }, resolve);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address !== null ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const socket of [...sockets, ...fresh]) socket.destroy(); // upgraded ones: no longer the server's to finish
      }),
  };
}
