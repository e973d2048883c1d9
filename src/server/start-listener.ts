/**
 * What every `serve()` does around a runtime's listener (`src/runtime/<runtime>/listen.ts`): the port
 * and hostname from the options or the environment, a port in use named, the listener's URL, `signal`
 * and the line on stderr. The default entry's `serve()` chooses the listener; `@mcplite/sdk/deno` and
 * `/bun` name theirs.
 *
 * @module
 */
import { answers } from "../runtime/answer-makers.ts";
import { env } from "../runtime/env.ts";
import type { Bound, Fetchable, Lent, Listen } from "../runtime/listen-types.ts";
import { bodyLimitOf, bodyTimeoutOf, lendReader, markBounded } from "../runtime/body-bound.ts";
import { recordPeer } from "../runtime/peer.ts";
import { unrefTimer } from "../runtime/unref-timer.ts";
import { concatBytes } from "../internal/concat-bytes.ts";
import { attachmentOf } from "./listener.ts";
import { registryOf } from "../core/definitions/registry.ts";

/** What every listener is lent: it imports none of it (see {@link Lent}). */
const LENT: Lent = {
  bodyLimitOf,
  bodyTimeoutOf,
  markBounded,
  lendReader,
  recordPeer,
  unrefTimer,
  concatBytes,
  answers,
};

/** Options of `serve()`. */
export interface ServeOptions {
  /** The port; 0 picks a free one. Defaults to `PORT` from the environment, else 8000. */
  port?: number;
  /**
   * The interface; defaults to `HOSTNAME` from the environment, else 127.0.0.1. Docker and Kubernetes set
   * `HOSTNAME` to the container's name, which resolves to its network address: a server there listens on
   * it, for the container's published ports. Pass `hostname` to choose (`"127.0.0.1"` for this machine only).
   */
  hostname?: string;
  /** Prints nothing; by default one line on stderr says where it listens, as `Deno.serve` does. */
  quiet?: boolean;
  /** Closes the listener when it aborts (graceful: the requests in flight finish), as `Deno.serve`'s `signal`. */
  signal?: AbortSignal;
  /** Called once listening, instead of the line on stderr. */
  onListen?: (listener: Listener) => void;
  /**
   * Which HTTP server listens. `"native"` (the default) is the runtime's own: `Deno.serve`, `Bun.serve`,
   * `node:http` on Node. `"node:http"` is `node:http` on every runtime (Deno and Bun implement it), with
   * the same deadlines everywhere: a request's head must arrive within the server's `bodyTimeoutMs`
   * (else 408, the connection closed), a head over 16 KiB is refused 431, a slow sender's connection is
   * closed after its 408, pipelined requests are answered in order. The native servers differ: `Deno.serve`
   * has no deadline for a head, answers an oversized one 400, and keeps a connection whose body is still
   * arriving; `Bun.serve` cuts a slow head after its own 10 s. Choose `"node:http"` for a Deno or Bun
   * server that untrusted clients reach directly (not through a proxy that enforces these); it serves
   * fewer requests a second than `Deno.serve` (about a third on Deno 2.9, measured on loopback), and
   * its WebSockets need the `ws` package (`npm install ws`), as on Node.
   */
  httpServer?: "native" | "node:http";
  /**
   * Shares the port with other processes that listen on it the same way (`SO_REUSEPORT`), the kernel
   * spreading connections among them: one process per core on one port. On Linux, with `Bun.serve`,
   * `Deno.serve` (run with `--unstable-net`) and `node:http` from Node 22.12; elsewhere the second process
   * finds the port in use. Each
   * process is its own server: state kept in memory (a 2025 session, a deferred job's result) stays in the
   * process a connection reached. Off by default.
   */
  reusePort?: boolean;
}

/** A running listener. */
export interface Listener {
  /** The base URL, e.g. `http://127.0.0.1:8000`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /**
   * Stops listening: the server's long-lived streams end first (`server.drain()`: `subscriptions/listen`,
   * `events/stream`, each with its last frame), then no new connections, idle keep-alive connections close, the
   * requests in flight finish (Deno, Node; Bun closes them), then their connections close.
   */
  close(): Promise<void>;
}

/**
 * Listens with `listen`, as `serve()` does.
 *
 * @param listen The runtime's listener.
 * @param app The server (or any `{ fetch }`).
 * @param options The options of `serve()`.
 * @returns The listener, once it is listening.
 */
export async function startListener(listen: Listen, app: Fetchable, options: ServeOptions = {}): Promise<Listener> {
  const port = options.port ?? Number(env("PORT") ?? 8000);
  const hostname = options.hostname ?? env("HOSTNAME") ?? "127.0.0.1";
  let bound: Bound;
  try {
    bound = await listen(app, { port, hostname, reusePort: options.reusePort }, LENT);
  } catch (error) {
    throw inUse(error, port, hostname, options.port === undefined) ?? error;
  }
  // A server of ours takes its share of the jobs of a queue its instances keep in their shared store from now, not
  // from its first request (`src/jobs/worker/jobs-here.ts`); any other `{ fetch }` has none.
  const core = attachmentOf(app)?.core;
  const registry = core === undefined ? undefined : registryOf(core);
  registry?.longRunning?.serve(registry);
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  let closed: Promise<void> | undefined;
  const listener: Listener = {
    url: `http://${host}:${bound.port}`,
    port: bound.port,
    // The server's long-lived streams ended first: the runtime's graceful shutdown waits for requests in flight.
    close: () => closed ??= Promise.resolve(app.drain?.()).then(() => bound.close()),
  };
  const { signal } = options;
  if (signal !== undefined) {
    if (signal.aborted) void listener.close();
    else signal.addEventListener("abort", () => void listener.close(), { once: true });
  }
  if (options.onListen !== undefined) options.onListen(listener);
  // stderr, so that a server whose stdout is piped somewhere keeps it clean.
  else if (options.quiet !== true) console.error(`Listening on ${listener.url}`);
  return listener;
}

/**
 * The port is taken (Node's and Bun's `EADDRINUSE`, Deno's `AddrInUse`): an error that names it and how to
 * choose another, the runtime's own as its `cause` and its `code` kept; undefined for any other error.
 */
function inUse(error: unknown, port: number, hostname: string, fromEnv: boolean): Error | undefined {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (code !== "EADDRINUSE" && name !== "AddrInUse") return undefined;
  const how = fromEnv
    ? `set PORT to another (PORT=${port + 1}), or 0 for a free one`
    : `pass serve() another port (port: ${port + 1}), or 0 for a free one`;
  return Object.assign(
    new Error(`serve(): port ${port} on ${hostname} is already in use (another server listens there); ${how}`, {
      cause: error,
    }),
    { code: "EADDRINUSE" },
  );
}
