/**
 * Connect and gRPC-Web clients of a server's `fetch` in process: Connect's transports over
 * `server.fetch`, no socket.
 */
import type { Transport } from "@connectrpc/connect";
import { createFetchClient } from "@connectrpc/connect/protocol";
import { createTransport as createConnectTransport } from "@connectrpc/connect/protocol-connect";
import { createTransport as createGrpcWebTransport } from "@connectrpc/connect/protocol-grpc-web";
import { BASE } from "./request.ts";

/**
 * A transport that calls a server's `fetch` directly.
 *
 * @param server The server (anything with `fetch`).
 * @param protocol Connect or gRPC-Web.
 * @param useBinaryFormat Protobuf binary instead of JSON.
 * @param useHttpGet Connect GET for side-effect-free methods (`GetTools`).
 */
export function inProcessTransport(
  server: { fetch(request: Request): Promise<Response> },
  protocol: "connect" | "grpc-web",
  useBinaryFormat: boolean,
  useHttpGet = false,
): Transport {
  const options = {
    // Connect's fetch client always passes a Request.
    httpClient: createFetchClient(((request: Request) => server.fetch(request)) as typeof fetch),
    baseUrl: BASE,
    useBinaryFormat,
    useHttpGet,
    interceptors: [],
    acceptCompression: [],
    sendCompression: null,
    compressMinBytes: 1024,
    readMaxBytes: 16 << 20,
    writeMaxBytes: 16 << 20,
  };
  return protocol === "connect" ? createConnectTransport(options) : createGrpcWebTransport(options);
}
