/**
 * The gate's Host/Origin guard (DNS-rebinding protection, `src/server/guard.ts`) on `serveGrpc()`, as
 * on `server.fetch`: a listener that serves plain gRPC also serves Connect and gRPC-Web, which a browser
 * page can send. The Host is the request's `:authority` (RFC 9113 §8.3.1; grpc-js and buf send the
 * target's `host:port`), the Origin the header a browser adds; gRPC clients send none and pass.
 *
 * @module
 */
import { ProtocolError } from "../../errors/error.ts";
import { ConnectError } from "@connectrpc/connect";
import { codeToHttpStatus, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import type { Gate, RequestGuard } from "../../server/mod.ts";
import { readableGrpcMessage } from "./node-unary.ts";
import { errorToConnectError } from "./status.ts";

/** What the guard reads of a `node:http2` request (`Http2ServerRequest`). */
interface NodeRequest {
  readonly method?: string;
  readonly authority: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** How a refusal is written (`Http2ServerResponse`, and the stream under it). */
interface NodeResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(): unknown;
  end(body: Uint8Array): unknown;
  readonly stream?: {
    respond(headers: Record<string, string | number>, options: { endStream: boolean }): unknown;
  };
}

/**
 * Checks a request's `:authority` and `Origin` with the server's guard; a refused request is answered
 * here: PERMISSION_DENIED, in gRPC's trailers-only form for gRPC (gRPC over HTTP/2 protocol, Responses),
 * as a Connect error with its HTTP status (403) for Connect and gRPC-Web.
 *
 * @param guard The server's guard (`gate.guard`).
 * @param request The request.
 * @param response Its response, answered when the request is refused.
 * @param reported The server's gate, told of a refusal (`gate.refused`).
 * @returns Whether the request may go on.
 */
export function guardNodeRequest(
  guard: RequestGuard,
  request: NodeRequest,
  response: NodeResponse,
  reported?: Pick<Gate, "refused">,
): boolean {
  const origin = request.headers.origin;
  const headers = { get: (name: string) => (name === "origin" && typeof origin === "string" ? origin : null) };
  try {
    guard({ headers }, `http://${request.authority}${request.url}`);
    return true;
  } catch (thrown) {
    refuseNodeRequest(request, response, thrown, {}, reported);
    return false;
  }
}

/**
 * Whether {@link guardNodeRequest} lets a request through, answering nothing: for the core stream API,
 * whose refused calls go to the listener that answers them.
 *
 * @param guard The server's guard (`gate.guard`).
 * @param authority The request's `:authority` (or `Host`).
 * @param path Its `:path`.
 * @param origin Its `Origin` header.
 * @returns Whether the request may go on.
 */
export function guardsNodeRequest(
  guard: RequestGuard,
  authority: string | undefined,
  path: string,
  origin: string | string[] | undefined,
): boolean {
  const headers = { get: (name: string) => (name === "origin" && typeof origin === "string" ? origin : null) };
  try {
    guard({ headers }, `http://${authority}${path}`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers a request refused before its body is read: in gRPC's trailers-only form for gRPC (gRPC over
 * HTTP/2 protocol, Responses), as a Connect error with its HTTP status for Connect and gRPC-Web.
 *
 * @param request The request.
 * @param response Its response.
 * @param thrown What it was refused with.
 * @param headers More response headers (`retry-after`).
 * @param reported The server's gate, told of the refusal (`gate.refused`).
 */
export function refuseNodeRequest(
  request: NodeRequest,
  response: NodeResponse,
  thrown: unknown,
  headers: Record<string, string> = {},
  reported?: Pick<Gate, "refused">,
): void {
  const error = thrown instanceof ConnectError ? thrown : errorToConnectError(thrown);
  const type = String(request.headers["content-type"] ?? "");
  const grpc = /^application\/grpc(?!-web)/.test(type);
  const observer = reported?.refused;
  if (observer !== undefined && thrown instanceof ProtocolError) {
    observer(thrown, {
      method: request.method ?? "POST",
      url: `http://${request.authority}${request.url}`,
      headers: fetchHeaders(request.headers),
    }, grpc ? 200 : codeToHttpStatus(error.code));
  }
  if (grpc) {
    const trailers: Record<string, string> = { ...headers, "content-type": "application/grpc" };
    setTrailerStatus(new Headers(), error).forEach((value, key) => trailers[key] = value);
    if (trailers["grpc-message"] !== undefined) {
      trailers["grpc-message"] = readableGrpcMessage(trailers["grpc-message"]);
    }
    // Trailers-only is one HEADERS frame that ends the stream (gRPC over HTTP/2 protocol, Responses). The
    // compatibility layer's writeHead() and end() send the headers first and end the stream in a frame of
    // its own; the request's unread body then gets RST_STREAM(NO_ERROR) (RFC 9113 §8.1), and grpc-js, which
    // reads a status in the headers only when they end the stream, fails the call "without gRPC status".
    if (response.stream !== undefined) response.stream.respond({ ":status": 200, ...trailers }, { endStream: true });
    else {
      response.writeHead(200, trailers);
      response.end();
    }
  } else {
    response.writeHead(codeToHttpStatus(error.code), { ...headers, "content-type": "application/json" });
    response.end(errorToJsonBytes(error, {}));
  }
}

/** A `node:http2` request's headers as fetch `Headers`, without its pseudo-headers (`:path`, RFC 9113 §8.3). */
function fetchHeaders(headers: NodeRequest["headers"]): Headers {
  const fetched = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    fetched.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return fetched;
}
