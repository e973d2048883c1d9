/**
 * `attachWebSocket()`: the WebSocket binding on Node. Node's fetch adapters (`@hono/node-server`…)
 * answer requests but never upgrade: an upgrade arrives as the `http.Server`'s `upgrade` event, with
 * the raw socket. This answers that event: the request goes through `server.fetch` (the gate, then
 * the binding's route, as on every runtime), and when the route accepts, the `ws` package (an optional
 * peer dependency, imported here only) completes the handshake (RFC 6455 §4.2.2).
 *
 * @module
 */
import { lendUpgrade, listen, type SocketEvents, tookOver } from "../socket-events.ts";

/** A Node `http.IncomingMessage`, as much of it as an upgrade reads. */
interface NodeRequest {
  readonly method?: string;
  readonly url?: string;
  readonly rawHeaders: readonly string[];
  readonly headers: { readonly host?: string };
  readonly socket: { readonly encrypted?: boolean };
}

/** A Node `stream.Duplex` (the upgraded TCP or TLS socket), as much of it as a refusal writes. */
interface NodeSocket {
  write(chunk: string | Uint8Array): unknown;
  end(): unknown;
  destroy(): unknown;
  on(event: "error", listener: (error: unknown) => void): unknown;
}

/** A Node `http.Server` (or `https`), as much of it as {@link attachWebSocket} uses. */
export interface NodeUpgradeServer {
  /** Node's `upgrade` event. */
  on(event: "upgrade", listener: (request: any, socket: any, head: any) => void): unknown;
  /** Removes the listener again. */
  off(event: "upgrade", listener: (request: any, socket: any, head: any) => void): unknown;
}

/** The part of the `ws` package's `WebSocket` the keep-alive uses. */
interface WsSocket {
  ping(): void;
  terminate(): void;
  pause(): void;
  resume(): void;
  on(event: "pong" | "close", listener: () => void): void;
}

/** The part of the `ws` package's `WebSocketServer` an upgrade uses. */
interface WsServer {
  handleUpgrade(request: unknown, socket: unknown, head: unknown, done: (socket: WsSocket) => void): void;
}

interface WsModule {
  WebSocketServer: new (options: {
    noServer: true;
    handleProtocols: (offered: Set<string>, request: unknown) => string | false;
  }) => WsServer;
}

/** The `ws` module, imported once, at the first upgrade: servers without WebSockets never load it. */
let wsModule: Promise<WsModule> | undefined;

function importWs(): Promise<WsModule> {
  wsModule ??= Promise.resolve().then(() => {
    // `require` through the runtime's node:module, reached at run time (no import, static or dynamic): JSR,
    // bundlers and `deno check` leave the optional peer alone, and Deno, Bun and Workers never load it.
    const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
      ?.getBuiltinModule?.("node:module") as { createRequire(from: string): (id: string) => unknown } | undefined;
    if (builtin === undefined) throw new Error("this runtime has no node:module");
    const module = builtin.createRequire(import.meta.url)("ws") as WsModule & { default?: WsModule };
    return module.WebSocketServer === undefined && module.default !== undefined ? module.default : module;
  }).catch((error) => {
    wsModule = undefined;
    throw new Error(`attachWebSocket needs the ws package on Node: npm install ws (${error})`);
  });
  return wsModule;
}

/**
 * Serves the WebSocket routes of a server (`webSocketBinding()`) on a Node HTTP server: answers its
 * `upgrade` event through `server.fetch`, so the upgrade passes the same gate (Host and Origin, `auth`
 * with the token in `Sec-WebSocket-Protocol`) and drives the same connection as on Deno, Bun and
 * Workers. Needs the `ws` package (`npm install ws`), loaded at the first upgrade. An upgrade the
 * server refuses (401, 403, 404…) gets its HTTP answer, then the socket is closed.
 *
 * @param httpServer The `http.Server` the app listens on (e.g. what `serve()` of `@hono/node-server` returns).
 * @param app The server (or any `{ fetch }`).
 * @returns A function that detaches the listener again.
 *
 * @example
 * ```ts ignore
 * import { serve } from "@hono/node-server"; // npm install @hono/node-server ws
 * import { createServer, defineTool, mcpLiteBinding } from "@mcplite/sdk";
 * import { attachWebSocket, webSocketBinding } from "@mcplite/sdk/websocket";
 *
 * const server = createServer({ name: "notes", version: "1.0.0", bindings: [mcpLiteBinding(), webSocketBinding()] })
 *   .tool(defineTool("ping").handle(() => "pong"));
 * const httpServer = serve({ fetch: server.fetch, port: 8000 });
 * attachWebSocket(httpServer, server); // ws://127.0.0.1:8000/mcp-lite/v1/ws
 * ```
 */
export function attachWebSocket(
  httpServer: {
    on(event: "upgrade", listener: (request: any, socket: any, head: any) => void): unknown;
    off(event: "upgrade", listener: (request: any, socket: any, head: any) => void): unknown;
  },
  app: { fetch(request: Request): Response | Promise<Response> },
): () => void {
  // One `ws` server per Node server; it selects the subprotocol each route chose (RFC 6455 §4.2.2).
  const protocols = new WeakMap<NodeRequest, string>();
  let handshakes: Promise<WsServer> | undefined;
  const onUpgrade = (request: NodeRequest, socket: NodeSocket, head: Uint8Array) => {
    socket.on("error", () => socket.destroy());
    handshakes ??= importWs().then((ws) =>
      new ws.WebSocketServer({
        noServer: true,
        handleProtocols: (_offered, request) => protocols.get(request as NodeRequest) ?? false,
      })
    );
    upgrade(app, { handshakes, protocols }, request, socket, head).catch((error) => {
      void refuse(socket, new Response(error instanceof Error ? error.message : String(error), { status: 500 }));
    });
  };
  httpServer.on("upgrade", onUpgrade);
  return () => void httpServer.off("upgrade", onUpgrade);
}

async function upgrade(
  app: { fetch(request: Request): Response | Promise<Response> },
  ws: { handshakes: Promise<WsServer>; protocols: WeakMap<NodeRequest, string> },
  incoming: NodeRequest,
  socket: NodeSocket,
  head: Uint8Array,
): Promise<void> {
  const server = await ws.handshakes;
  const request = toRequest(incoming);
  let accepted: { events: SocketEvents; protocol?: string; idleTimeoutS?: number } | undefined;
  lendUpgrade(request, (events, accept) => {
    accepted = { events, protocol: accept.protocol, idleTimeoutS: accept.idleTimeoutS };
    return true;
  });
  const response = await app.fetch(request);
  if (!tookOver(response) || accepted === undefined) return refuse(socket, response);
  const { events, protocol, idleTimeoutS } = accepted;
  if (protocol !== undefined) ws.protocols.set(incoming, protocol);
  server.handleUpgrade(incoming, socket, head, (accepted) => {
    // `ws` sockets have the standard `EventTarget` surface `listen` reads (readyState, binaryType, events).
    listen(accepted as unknown as WebSocket, events, {
      // A peer over its limit is dropped at once, and one behind stops being read (`inbound-flow.ts`).
      terminate: () => accepted.terminate(),
      pause: () => accepted.pause(),
      resume: () => accepted.resume(),
    });
    if (idleTimeoutS !== undefined) keepAlive(accepted, idleTimeoutS);
  });
}

/** Pings every `idleTimeoutS` seconds and drops a socket that did not answer the last ping (RFC 6455 §5.5.2), as Deno's `idleTimeout`. */
function keepAlive(socket: WsSocket, idleTimeoutS: number): void {
  let answered = true;
  socket.on("pong", () => void (answered = true));
  const timer = setInterval(() => {
    if (!answered) return socket.terminate();
    answered = false;
    socket.ping();
  }, idleTimeoutS * 1000);
  socket.on("close", () => clearInterval(timer));
}

/** The `Request` of an upgrade, as a fetch adapter builds it for an ordinary request. */
function toRequest(incoming: NodeRequest): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    headers.append(incoming.rawHeaders[i], incoming.rawHeaders[i + 1]);
  }
  const scheme = incoming.socket.encrypted === true ? "https" : "http";
  return new Request(`${scheme}://${incoming.headers.host ?? "localhost"}${incoming.url ?? "/"}`, {
    method: incoming.method ?? "GET",
    headers,
  });
}

/** Writes a refused upgrade's HTTP answer on the raw socket (RFC 9112 §4), then closes it. */
async function refuse(socket: NodeSocket, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText || "Refused"}`];
  response.headers.forEach((value, name) => {
    if (name !== "content-length" && name !== "connection") lines.push(`${name}: ${value}`);
  });
  lines.push(`content-length: ${body.byteLength}`, "connection: close", "", "");
  socket.write(lines.join("\r\n"));
  socket.write(body);
  socket.end();
}
