/**
 * How long a server lingers on a connection it closes while the request's body still arrives (a refusal sent
 * before the body was read: 503, 429, 401, 413, 408), on every runtime's listener. Closed at once, the client's
 * next bytes meet a reset, and "the reset packet might erase the client's unacknowledged input buffers before
 * they can be read" (RFC 9112 §9.6), the answer among them: so the server half-closes, reads and discards what
 * comes, and closes once the client has, or after this long (the "lingering close" of Apache httpd and nginx).
 *
 * @module
 */

/** The longest a server reads and discards a refused body after its answer before it closes anyway, in ms. */
export const LINGER_MS = 2_000;
