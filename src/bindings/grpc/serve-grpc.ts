/**
 * `serveGrpc()`: real gRPC (with trailers), gRPC-Web and Connect over cleartext HTTP/2, through `node:http2` and
 * Connect's Node adapter, loaded on first use so that `@mcplite/sdk/grpc` imports on runtimes without it. Bun and
 * Node serve it in production; Deno's `node:http2` can abort the process (denoland/deno#36788), so under Deno run
 * the gRPC listener as a process of its own on Bun or Node. Why: docs/guides/grpc.md.
 *
 * @module
 */
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import type { OutgoingHttpHeaders as OutgoingHeaders } from "node:http";
import { attachListener, type Host, NO_HOST, type Server } from "../../server/mod.ts";
import { HOST_KEY } from "./host-key.ts";
import { authInterceptor } from "./auth-interceptor.ts";
import { guardNodeRequest, guardsNodeRequest } from "./node-guard.ts";
import { admitNodeCall, admitNodeStream } from "./node-budget.ts";
import { budgeting, registryOf } from "../../core/mod.ts";
import { createGrpcRoutes, type GrpcRoutesOptions } from "./service.ts";

/**
 * @internal Leaves every call to Connect's adapter (no direct unary path): for the tests that require
 * both paths to answer the same bytes.
 */
export const NO_DIRECT_PATH: unique symbol = Symbol("mcplite.grpc.noDirectPath");

/**
 * Options of {@link serveGrpc}; `reflection` (default `true`) serves gRPC Server Reflection beside the
 * service, for `grpcurl` and `buf curl --reflect`.
 */
export interface ServeGrpcOptions extends GrpcRoutesOptions {
  /** The interface; defaults to 127.0.0.1. Use `0.0.0.0` or `::` to accept remote clients. */
  hostname?: string;
  /** The port; 0 picks a free one. Defaults to 50051, gRPC's customary port. */
  port?: number;
  /** How long `close()` lets calls in flight finish before it cancels them, in milliseconds (default 5000). */
  closeGraceMs?: number;
  /** @internal See {@link NO_DIRECT_PATH}. */
  [NO_DIRECT_PATH]?: boolean;
}

/** A running gRPC listener. */
export interface GrpcListener {
  /** The base URL, e.g. `http://127.0.0.1:50051`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /**
   * Stops accepting connections, lets the calls in flight finish for `closeGraceMs`, then cancels the
   * rest (their `ctx.signal` aborts) and closes.
   */
  close(): Promise<void>;
}

/** What {@link serveGrpc} serves: a `Server` from `createServer()`, whatever its tools. */
export type GrpcServable = Server<any>;

/**
 * Serves a server's tools as the `mcplite.MCPLite` service on cleartext HTTP/2 (h2c, prior
 * knowledge): gRPC, gRPC-Web and Connect, with gRPC Server Reflection (v1 and v1alpha) unless
 * `reflection: false`. HTTP/1.1 clients (browsers, `buf curl --http1.1`) use
 * `grpcBinding()` in the server's `bindings`, on its `fetch`, instead. A server made with `auth` has
 * every call authenticated from its `authorization` metadata: `UNAUTHENTICATED` (or, for a missing
 * scope, `PERMISSION_DENIED`) with the `www-authenticate` challenge in the trailers otherwise, and the
 * listener serves the Protected Resource Metadata (RFC 9728) the challenges point at.
 *
 * @param server The server (from `createServer()`).
 * @param options The interface, port and close grace period.
 * @returns The listener, once it is listening.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "../../../mod.ts";
 * import { serveGrpc } from "./serve-grpc.ts";
 * const grpc = await serveGrpc(createServer({ name: "demo", version: "1.0.0" }), { port: 50051 });
 * // buf curl --protocol grpc --http2-prior-knowledge http://127.0.0.1:50051/mcplite.MCPLite/GetTools
 * // grpcurl -plaintext 127.0.0.1:50051 list · buf curl --http2-prior-knowledge --list-methods http://127.0.0.1:50051
 * await grpc.close();
 * ```
 */
export async function serveGrpc(server: GrpcServable, options: ServeGrpcOptions = {}): Promise<GrpcListener> {
  const [http2, { EventEmitter }, { connectNodeAdapter }, { createNodeUnary, readableGrpcMessage }] = await Promise.all(
    [
      import("node:http2"),
      import("node:events"),
      import("@connectrpc/connect-node"),
      import("./node-unary.ts"), // loads connect-node too
    ],
  );
  const { core, gate } = attachListener(server);
  const routes = createGrpcRoutes(core, { reflection: options.reflection, holdMs: options.holdMs });
  const maxBodyBytes = core.options.maxBodyBytes;
  const budgets = budgeting.of(registryOf(core).runtime);
  const shutdown = new AbortController();
  // Every call in flight listens to the shutdown signal (and lets go when it ends): no leak warning.
  // The static method, not the module's named export: Deno's built-in node types (what a user without
  // @types/node type-checks against) type a dynamic `import("node:events")` without `setMaxListeners`.
  EventEmitter.setMaxListeners(0, shutdown.signal);
  // The listener calls the server's gate itself: the Host/Origin guard on every request (node-guard.ts)
  // and, with `auth`, authentication, with the same checks and challenges as on `server.fetch`. No CORS:
  // browsers do not speak cleartext HTTP/2 (h2c), but the guard refuses a foreign Host or Origin here too.
  const authenticating = gate.auth === undefined ? undefined : gate;
  const interceptors = authenticating === undefined ? [] : [authInterceptor(authenticating)];
  // Each call's host, as admitted: what exempts it from the request budgets (a push stream, SEP-3415 "Push").
  const hosts = new WeakMap<object, Host>();
  const handle = connectNodeAdapter({
    routes,
    readMaxBytes: maxBodyBytes,
    shutdownSignal: shutdown.signal,
    interceptors,
    contextValues: (request) => createContextValues().set(HOST_KEY, hosts.get(request) ?? NO_HOST),
  });
  const addTrailers = http2.Http2ServerResponse.prototype.addTrailers;
  const guard = gate.guard;
  const h2 = http2.createServer(function grpcRequest(request, response) {
    if (!guardNodeRequest(guard, request, response, gate)) return;
    // The challenges point at the metadata (RFC 9728 §3): the gate answers it here too, for a listener
    // that is the resource.
    const metadata = authenticating?.metadata(request.method, request.url);
    if (metadata !== undefined) {
      response.writeHead(metadata.status, metadata.headers);
      if (metadata.body === null) response.end();
      else response.end(metadata.body);
      return;
    }
    const admitted = admitNodeCall(budgets, maxBodyBytes, request, response, gate, refusedStreams.get(request.stream));
    if (admitted === undefined) return;
    hosts.set(request, admitted);
    response.addTrailers = readableTrailers;
    handle(request, response);
  });
  /** Connect's adapter's trailers, with a `grpc-message` grpc-js reads right (`readableGrpcMessage`). */
  function readableTrailers(this: import("node:http2").Http2ServerResponse, headers: OutgoingHeaders): void {
    const message = headers["grpc-message"];
    if (typeof message === "string") headers["grpc-message"] = readableGrpcMessage(message);
    addTrailers.call(this, headers);
  }
  // Plain gRPC unary calls take the direct path on the core stream API (authenticated by the
  // interceptor's own check), before the compatibility layer's `stream` listener, which gets the rest
  // for Connect's adapter, and the calls the guard or the budgets refuse, to refuse them as above.
  const refusedStreams = new WeakMap<import("node:http2").ServerHttp2Stream, budgeting.BudgetRefusal>();
  const [compat, ...others] = h2.listeners("stream");
  if (options[NO_DIRECT_PATH] !== true && compat !== undefined && others.length === 0) {
    const direct = createNodeUnary(core, {
      readMaxBytes: maxBodyBytes,
      shutdownSignal: shutdown.signal,
      gate: authenticating,
      admit(stream, headers) {
        const authority = headers[":authority"] ?? headers.host;
        const path = headers[":path"]!;
        if (!guardsNodeRequest(guard, authority, path, headers.origin)) return false;
        const refusal = admitNodeStream(budgets, maxBodyBytes, stream, headers);
        if (refusal === undefined) return true;
        refusedStreams.set(stream, refusal);
        return false;
      },
    });
    h2.off("stream", compat as () => void);
    h2.on("stream", function grpcStream(stream, headers, ...rest) {
      if (!direct(stream as import("node:http2").ServerHttp2Stream, headers)) {
        Reflect.apply(compat, h2, [stream, headers, ...rest]);
      }
    });
  }
  const sessions = new Set<import("node:http2").Http2Session>();
  h2.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const hostname = options.hostname ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    h2.once("error", reject);
    h2.listen(options.port ?? 50051, hostname, () => {
      h2.off("error", reject);
      resolve();
    });
  });
  const port = (h2.address() as { port: number }).port;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const grace = options.closeGraceMs ?? 5000;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // GOAWAY first: calls in flight get `grace` ms to finish. Then the rest are cancelled (ctx.signal
        // aborts, clients get UNAVAILABLE) and, a moment later, their connections cut. Cancelling right
        // away instead can segfault Deno's node:http2 when a client has just reset a stream.
        const cut = () => {
          shutdown.abort(new ConnectError("the server is shutting down", Code.Unavailable));
          setTimeout(() => {
            for (const session of sessions) session.destroy();
          }, 50);
        };
        const timer = setTimeout(cut, grace);
        h2.close(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const session of sessions) session.close();
      }),
  };
}
