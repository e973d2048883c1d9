/**
 * `serve()`: listens on a port with the runtime's own HTTP server (Deno.serve or Bun.serve), so the
 * same script runs under `deno run` and `bun run`.
 *
 * @module
 */
import { env } from "../internal/env.ts";
import { bunWebSocket, type BunWebSocketOptions } from "./upgrade.ts";

export { env };

/** Something with a fetch handler: a `Server`, or any `{ fetch }`. */
export interface Fetchable {
  /** Answers a request. */
  fetch(request: Request): Response | Promise<Response>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  /** The port; 0 picks a free one. Defaults to `PORT` from the environment, else 8000. */
  port?: number;
  /** The interface; defaults to `HOSTNAME` from the environment, else 127.0.0.1. */
  hostname?: string;
  /** Prints nothing; by default one line on stderr says where it listens, as `Deno.serve` does. */
  quiet?: boolean;
}

/** A running listener. */
export interface Listener {
  /** The base URL, e.g. `http://127.0.0.1:8000`. */
  readonly url: string;
  /** The port actually bound. */
  readonly port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

interface DenoLike {
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
  env: { get(name: string): string | undefined };
}

interface BunLike {
  serve(
    options: BunWebSocketOptions & { port: number; hostname: string; idleTimeout?: number },
  ): { port: number; stop(force?: boolean): Promise<void> | void };
  env: Record<string, string | undefined>;
}

/**
 * Serves a fetch handler on Deno or Bun.
 *
 * @param app The server (or any `{ fetch }`).
 * @param options The port and hostname, and `quiet` to leave out the line `Listening on <url>` on stderr.
 * @returns The listener, once it is listening.
 * @throws {Error} On a runtime with no built-in fetch server (Node: use an adapter such as `@hono/node-server`).
 *
 * @example
 * ```ts
 * import { createServer, serve } from "../../mod.ts";
 * const listener = await serve(createServer({ name: "demo", version: "1.0.0" }), { port: 0 });
 * // stderr: Listening on http://127.0.0.1:… (pass `quiet: true` for nothing)
 * console.log(listener.url);
 * await listener.close();
 * ```
 */
export async function serve(app: Fetchable, options: ServeOptions = {}): Promise<Listener> {
  const listener = await listen(app, options);
  // stderr, so that a server whose stdout is piped somewhere keeps it clean.
  if (options.quiet !== true) console.error(`Listening on ${listener.url}`);
  return listener;
}

function listen(app: Fetchable, options: ServeOptions): Promise<Listener> {
  const port = options.port ?? Number(env("PORT") ?? 8000);
  const hostname = options.hostname ?? env("HOSTNAME") ?? "127.0.0.1";
  const fetch = (request: Request) => app.fetch(request);
  const g = globalThis as { Deno?: DenoLike; Bun?: BunLike };
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  if (g.Deno) {
    return new Promise((resolve) => {
      const server = g.Deno!.serve({
        port,
        hostname,
        onListen: () =>
          queueMicrotask(() =>
            resolve({
              url: `http://${host}:${server.addr.port}`,
              port: server.addr.port,
              close: () => server.shutdown(),
            })
          ),
      }, fetch);
    });
  }
  if (g.Bun) {
    // Bun closes idle connections after 10 s by default; SSE streams send heartbeats, and this
    // raises the limit so a slow plain JSON call is not cut either. Bun hands a WebSocket's events
    // to the server's handlers, not to the socket: bunWebSocket() routes them to the route that upgraded.
    const server = g.Bun.serve({ port, hostname, ...bunWebSocket(app), idleTimeout: 255 });
    return Promise.resolve({
      url: `http://${host}:${server.port}`,
      port: server.port,
      close: async () => {
        await server.stop(true);
      },
    });
  }
  return Promise.reject(
    new Error("serve() needs Deno or Bun; on Node pass server.fetch to a fetch adapter such as @hono/node-server"),
  );
}
