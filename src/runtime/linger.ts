/**
 * How long a server lingers on a connection it closes while the request's body is still arriving (a refusal
 * sent before the body was read: 503 and 429 from the budgets, 401, 413, 408), on every runtime's listener.
 *
 * RFC 9112 §9.6: a server that closes at once while the client still sends makes its TCP stack answer the
 * bytes that follow with a reset, and "the reset packet might erase the client's unacknowledged input
 * buffers before they can be read", the answer among them. So the server half-closes (its answer, then
 * FIN), keeps reading and discarding what the client sends, and closes fully once the client has closed
 * too, or once this long has passed: by then a client that was reading has read the answer (the
 * "lingering close" of Apache httpd and nginx, whose `lingering_time` bounds it the same way).
 *
 * @module
 */

/** The longest a server reads and discards a refused body after its answer before it closes anyway, in ms. */
export const LINGER_MS = 2_000;
