/**
 * The parts of Node's `http.IncomingMessage` and `http.ServerResponse` the adapter uses, declared here so
 * that the package's types need neither `@types/node` nor an import of `node:http`. Express's and
 * Fastify's raw request and response are these same objects (Express adds `originalUrl` and `body`).
 *
 * @module
 */

/** A Node `http.IncomingMessage` (or Express's `req`), as much of it as a `Request` is built from. */
export interface NodeRequest {
  /** The method. */
  readonly method?: string;
  /** The path and query (Express: under the mount point). */
  readonly url?: string;
  /** Express: the path and query as they arrived, before the mount point was taken off. */
  readonly originalUrl?: string;
  /** The headers, name and value in turn, as they arrived. */
  readonly rawHeaders: readonly string[];
  /** The headers, by lower-case name. */
  readonly headers: {
    readonly host?: string;
    readonly "content-length"?: string;
    readonly "transfer-encoding"?: string;
  };
  /** The connection (a `tls.TLSSocket`, whose `encrypted` is true, on HTTPS). */
  readonly socket: object;
  /** Express's body parsers: the body they read (`express.json()`, `express.text()`, `express.raw()`). */
  readonly body?: unknown;
  /** Whether the body was read to its end already (by a body parser). */
  readonly readableEnded?: boolean;
  /** Whether the whole message (head and body) was received. */
  readonly complete?: boolean;
  /** Whether the body is flowing to `data` listeners. */
  readonly readableFlowing?: boolean | null;
  /** The body received and not yet read, or null. */
  read(): Uint8Array | null;
  /** Pauses the body's `data` events. */
  pause(): unknown;
  /** Resumes them. */
  resume(): unknown;
  /** Node's stream events. */
  on(event: "data" | "end" | "error" | "close", listener: (value?: any) => void): unknown;
}

/** A Node `http.ServerResponse` (or Express's `res`, Fastify's `reply.raw`), as much of it as an answer writes. */
export interface NodeResponse {
  /** Whether the status line and headers went out. */
  readonly headersSent: boolean;
  /** Whether the whole answer was handed to the socket. */
  readonly writableFinished: boolean;
  /** Writes the status line and headers (Node's reason phrase when `statusText` is undefined). */
  writeHead(status: number, statusText: string | undefined, headers: Record<string, string | string[]>): unknown;
  /** Writes a chunk of the body; false when the socket's buffer is full (wait for `drain`). */
  write(chunk: Uint8Array): boolean;
  /** Ends the answer, with a last chunk. */
  end(chunk?: Uint8Array | string): unknown;
  /** Sends the status line and headers now, before the first chunk of the body (an event stream). */
  flushHeaders(): void;
  /** Closes the connection abruptly. */
  destroy(error?: Error): unknown;
  /** `close`: the answer ended or the client went away; `drain`: the socket's buffer emptied. */
  once(event: "close" | "drain", listener: () => void): unknown;
  /** Removes a listener. */
  off(event: "close" | "drain", listener: () => void): unknown;
}
