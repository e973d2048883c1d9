/**
 * Closing a connection from a `Deno.serve` handler. `Deno.serve` (2.9) keeps a connection open while
 * the request's body is still arriving, whatever `Connection: close` the response says: a body refused
 * 413 for its declared length, or refused unread (401, 403, 415…), would keep its socket for as long
 * as the sender cares to send. A response body that fails is the one thing that makes `Deno.serve`
 * drop a connection, so such a refusal is sent whole, with its `Content-Length`, and its body then
 * fails on purpose: the client reads the complete answer, then the connection closes (RFC 9112 §9.6).
 * This works only while the request's body was never read: once a read has started (a 408 for a slow
 * sender), Deno 2.9.5 keeps the connection until the body ends, and no handler can change that.
 *
 * @module
 */

/** The failure that ends a refusal's body: the connection closes, nothing is reported. */
class ConnectionClosed extends Error {
  override readonly name = "ConnectionClosed";
}

const CLOSED = new ConnectionClosed("closed after a refusal marked Connection: close");

/**
 * The response as sent, closing the connection after it when it refuses a request whose body was left
 * unread (the client may still be sending it).
 *
 * @param request The request.
 * @param response The handler's response.
 * @returns The same response, or one with the same head and body that closes the connection after it.
 */
export function closingAfter(request: Request, response: Response): Response | Promise<Response> {
  if (response.status < 400 || request.body === null || request.bodyUsed) return response;
  return response.arrayBuffer().then((buffer) => {
    const bytes = new Uint8Array(buffer);
    const headers = new Headers(response.headers);
    headers.set("content-length", String(bytes.byteLength));
    headers.set("connection", "close");
    let sent = false;
    // The bytes, then (once they are taken) the failure: Deno writes the whole body, then drops the connection.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent || bytes.byteLength === 0) return controller.error(CLOSED);
        sent = true;
        controller.enqueue(bytes);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  });
}

/**
 * `Deno.serve`'s `onError`: the failure that closes a connection is expected and silent; any other
 * is printed and answered 500, as `Deno.serve` does without one.
 *
 * @param error What the handler or a response body threw.
 * @returns The answer, when the response has not started.
 */
export function onServeError(error: unknown): Response {
  if (error !== CLOSED) console.error(error);
  return new Response("Internal Server Error", { status: 500 });
}
