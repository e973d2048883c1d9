/**
 * What `serve()` and each runtime's listener (`src/runtime/<runtime>/listen.ts`) agree on: the app they
 * serve and the port they bound. Its own file, so that neither imports the other.
 *
 * @module
 */

/** Something with a fetch handler: a `Server`, or any `{ fetch }`. */
export interface Fetchable {
  /** Answers a request. */
  fetch(request: Request): Response | Promise<Response>;
}

/** A server bound to a port by a runtime's HTTP server (`src/runtime/{deno,bun,node}/listen.ts`). */
export interface Bound {
  /** The port actually bound. */
  readonly port: number;
  /** Stops accepting connections, lets the requests in flight finish, and closes the connections. */
  close(): Promise<void>;
}

/**
 * A runtime's listener: binds `app` to `hostname:port` (0: a free port), sharing the port with other
 * processes when `reusePort` (`SO_REUSEPORT`); resolves once it listens.
 */
export type Listen = (app: Fetchable, port: number, hostname: string, reusePort?: boolean) => Promise<Bound>;
