/**
 * `@mcplite/sdk/deno`: `serve()` with Deno's own HTTP server, `Deno.serve`, named by the import rather
 * than chosen at run time (the default entry's `serve()` works on Deno too). A WebSocket route upgrades
 * through `Deno.upgradeWebSocket` behind `fetch`, so nothing more is needed for `webSocketBinding()`.
 *
 * @example
 * ```ts
 * import { createServer } from "@mcplite/sdk";
 * import { serve } from "@mcplite/sdk/deno";
 *
 * const listener = await serve(createServer({ name: "notes", version: "1.0.0" }), { port: 0, quiet: true });
 * await listener.close();
 * ```
 *
 * @module
 */
import type { Fetchable } from "../listen-types.ts";
import { type Listener, type ServeOptions, startListener } from "../../server/start-listener.ts";
import { listen } from "./listen.ts";

/**
 * Serves a fetch handler with `Deno.serve`: the default entry's `serve()`, its listener named. Run
 * Deno with `--unstable-no-legacy-abort`, so that a client that goes away aborts `ctx.signal`.
 *
 * @param app The server (or any `{ fetch }`).
 * @param options The port and hostname (default `PORT`, `HOSTNAME`, else 8000 on 127.0.0.1); `signal`
 *   to stop; `onListen`, or `quiet` to leave out the line on stderr.
 * @returns The listener, once it is listening.
 * @throws {Error} When the port is in use (its `code` is `EADDRINUSE`), or when this is not Deno.
 *
 * @example
 * ```ts
 * import { createServer } from "@mcplite/sdk";
 * import { serve } from "@mcplite/sdk/deno";
 *
 * const listener = await serve(createServer({ name: "notes", version: "1.0.0" }), { port: 0, quiet: true });
 * console.log(listener.url); // http://127.0.0.1:…
 * await listener.close();
 * ```
 */
export function serve(app: Fetchable, options: Omit<ServeOptions, "httpServer"> = {}): Promise<Listener> {
  if ((globalThis as { Deno?: unknown }).Deno === undefined) {
    return Promise.reject(new Error("@mcplite/sdk/deno serves on Deno only: import serve from @mcplite/sdk elsewhere"));
  }
  return startListener(listen, app, options);
}
