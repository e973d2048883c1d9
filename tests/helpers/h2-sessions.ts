/**
 * Connect's Node HTTP/2 transports (gRPC, and Connect over HTTP/2) whose sessions a test closes before it
 * closes its `serveGrpc()` listener. Deno 2.9 can abort the whole process inside nghttp2 when a client
 * session receives the server's GOAWAY (`find_stream_on_goaway_func: Assertion stream->closed_next == NULL`,
 * denoland/deno#36788), and the client and the server of these tests share that process: the client leaves
 * first, so no client session is open when `close()` sends GOAWAY.
 */
import * as node from "@connectrpc/connect-node";
import type { Transport } from "@connectrpc/connect";

/** The session managers of the transports made since the last {@link closeClientSessions}. */
const managers = new Set<node.Http2SessionManager>();

function managed(baseUrl: string): node.Http2SessionManager {
  const manager = new node.Http2SessionManager(baseUrl);
  managers.add(manager);
  return manager;
}

/** gRPC over HTTP/2 (`@connectrpc/connect-node`'s `createGrpcTransport`), its session tracked. */
export function grpcOverH2(baseUrl: string): Transport {
  return node.createGrpcTransport({ baseUrl, sessionManager: managed(baseUrl) });
}

/** The Connect protocol over HTTP/2 (`createConnectTransport`, `httpVersion: "2"`), its session tracked. */
export function connectOverH2(baseUrl: string): Transport {
  return node.createConnectTransport({ baseUrl, httpVersion: "2", sessionManager: managed(baseUrl) });
}

/** gRPC-Web over HTTP/2 (`createGrpcWebTransport`, `httpVersion: "2"`), its session tracked. */
export function grpcWebOverH2(baseUrl: string): Transport {
  return node.createGrpcWebTransport({ baseUrl, httpVersion: "2", sessionManager: managed(baseUrl) });
}

/** Closes every tracked client session (the client's own GOAWAY); call it before the listener's `close()`. */
export function closeClientSessions(): void {
  for (const manager of managers) manager.abort();
  managers.clear();
}

/**
 * Why a test that ends HTTP/2 streams abnormally (resets, malformed frames) or by the hundred is skipped under Deno:
 * Deno's `node:http2` then aborts the whole test process now and then (nghttp2's `find_stream_on_goaway_func`
 * assertion, denoland/deno#36788; in CI about one run in twenty of tests/bindings/grpc/node-unary.test.ts), taking
 * every test of the process with it. They run on Bun, where `serveGrpc()` is meant for production
 * (docs/guides/grpc.md); `false` elsewhere.
 */
export const DENO_H2_ABORTS: string | false = "Deno" in globalThis
  ? "Deno's node:http2 aborts the process on these streams now and then (denoland/deno#36788); run on Bun"
  : false;
