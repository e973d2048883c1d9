/**
 * `serve()`: listens on a port with the runtime's own HTTP server (`Deno.serve`, `Bun.serve`, or
 * `node:http` on Node), so the same script runs under `deno run`, `bun run` and `node`. Each runtime's
 * listener lives in `src/runtime/<runtime>/` and is loaded on that runtime only.
 *
 * @module
 */
import { env } from "../runtime/env.ts";
import type { Fetchable, Listen } from "../runtime/listen-types.ts";
import { type Listener, type ServeOptions, startListener } from "./start-listener.ts";

export { env };
export type { Fetchable, Listener, ServeOptions };

/**
 * Serves a fetch handler on Deno, Bun or Node (22 or later), with the same options and behaviour on each:
 * HTTP/1.1 with keep-alive, request bodies read within the server's limits, SSE answers streamed (and
 * their calls cancelled when the client goes away), and the WebSocket binding's upgrades (on Node with
 * the `ws` package, an optional peer: `npm install ws`).
 *
 * @param app The server (or any `{ fetch }`).
 * @param options The port and hostname; `signal` to stop; `onListen`, or `quiet` to leave out the line
 *   `Listening on <url>` on stderr.
 * @returns The listener, once it is listening.
 * @throws {Error} When the port is in use: the message names it and how to choose another (`PORT`, or
 *   the `port` option), the runtime's error is its `cause`, and its `code` is `EADDRINUSE` on every runtime.
 * @throws {Error} On a runtime with none of these servers (a browser, a Worker: export the server instead).
 * @throws {TypeError} For an unknown `httpServer`.
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
  if (options.httpServer !== undefined && options.httpServer !== "native" && options.httpServer !== "node:http") {
    throw new TypeError(`httpServer must be "native" or "node:http", not ${JSON.stringify(options.httpServer)}`);
  }
  const listen = options.httpServer === "node:http"
    ? (await import("../runtime/node/listen.ts")).listen
    : await runtimeListen();
  return startListener(listen, app, options);
}

/** This runtime's listener, loaded on this runtime only. */
async function runtimeListen(): Promise<Listen> {
  const g = globalThis as { Deno?: unknown; Bun?: unknown; process?: { versions?: { node?: string } } };
  if (g.Deno !== undefined) return (await import("../runtime/deno/listen.ts")).listen;
  if (g.Bun !== undefined) return (await import("../runtime/bun/listen.ts")).listen;
  if (g.process?.versions?.node !== undefined) return (await import("../runtime/node/listen.ts")).listen;
  throw new Error(
    "serve() needs Deno, Bun or Node 22+; elsewhere (Workers, a browser) export the server, or hand server.fetch to the host's fetch server",
  );
}
