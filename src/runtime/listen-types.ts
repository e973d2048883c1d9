/**
 * What `serve()` and each runtime's listener (`src/runtime/<runtime>/listen.ts`) agree on: the app they
 * serve and the port they bound. Its own file, so that neither imports the other.
 *
 * @module
 */

import type { AnswerMakers } from "./answer-makers.ts";
import type { DeclaredReader } from "./body-bound.ts";

/** Something with a fetch handler: a `Server`, or any `{ fetch }`. */
export interface Fetchable {
  /** Answers a request. */
  fetch(request: Request): Response | Promise<Response>;
  /** Ends the long-lived streams it holds open (`Server.drain()`), before a graceful shutdown. */
  drain?(): Promise<void>;
}

/** A server bound to a port by a runtime's HTTP server (`src/runtime/{deno,bun,node}/listen.ts`). */
export interface Bound {
  /** The port actually bound. */
  readonly port: number;
  /** Stops accepting connections, lets the requests in flight finish, and closes the connections. */
  close(): Promise<void>;
}

/**
 * What a listener shares with the server it serves, lent to it (by `serve()`, `src/server/start-listener.ts`, and
 * by `nodeHandler()`) rather than imported: `serve()` loads its listeners lazily, and a bundler wraps and moves
 * each module both import (`bun build`: +0.1 KB gzip on every server, which never listens).
 */
export interface Lent {
  /** The body limit an app's fetch handler declared, in bytes (`src/runtime/body-bound.ts`). */
  bodyLimitOf(app: { fetch: unknown }): number | undefined;
  /** The longest a request may take to arrive, in ms, as an app's fetch handler declared it. */
  bodyTimeoutOf(app: { fetch: unknown }): number | undefined;
  /** Marks a request whose body the listener bounds at its server's limit. */
  markBounded(request: Request): void;
  /** Lends a request the listener's own reader of a body of a declared length (`body-bound.ts`). */
  lendReader(request: Request, reader: DeclaredReader): void;
  /** Records a request's peer: its address, or the `Bun.serve` server that tells it (`src/runtime/peer.ts`). */
  recordPeer(request: Request, peer: string | { requestIP(request: Request): { address: string } | null }): void;
  /** Keeps a timer from holding the process open (`src/runtime/unref-timer.ts`). */
  unrefTimer<T extends ReturnType<typeof setTimeout>>(timer: T): T;
  /** Joins chunks into one array of `size` bytes (`src/internal/concat-bytes.ts`). */
  concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array;
  /** How the server makes the answers it serialised itself (`src/runtime/answer-makers.ts`). */
  readonly answers: AnswerMakers;
}

/** Where a listener binds. */
export interface ListenAt {
  /** The port (0: a free one). */
  readonly port: number;
  /** The interface. */
  readonly hostname: string;
  /** Whether to share the port with other processes (`SO_REUSEPORT`, on Linux; Node 22.12 or later). */
  readonly reusePort?: boolean;
}

/**
 * A runtime's listener: binds `app` to `hostname:port` (0: a free port), sharing the port with other
 * processes when `reusePort` (`SO_REUSEPORT`); resolves once it listens.
 */
export type Listen = (app: Fetchable, at: ListenAt, lent: Lent) => Promise<Bound>;
