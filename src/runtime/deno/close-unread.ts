/**
 * Closing a connection from a `Deno.serve` handler. `Deno.serve` (2.9) keeps a connection open while a request's
 * body is still arriving, whatever `Connection: close` says, so a refusal of an unread body (413, 401, 415…) is sent
 * whole with its `Content-Length` and its body then fails on purpose: the client reads the whole answer, then the
 * connection closes (RFC 9112 §9.6). Only while the body was never read. Why: docs/concepts/runtimes.md.
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
