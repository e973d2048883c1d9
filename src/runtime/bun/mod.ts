/**
 * `@mcplite/sdk/bun`: `serve()` with Bun's own HTTP server, `Bun.serve`, named by the import rather than
 * chosen at run time (the default entry's `serve()` works on Bun too). For a `Bun.serve` of your own,
 * `bunWebSocket()` of `@mcplite/sdk/websocket` gives the options that carry `webSocketBinding()`'s upgrades.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@mcplite/sdk";
 * import { serve } from "@mcplite/sdk/bun";
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
 * Serves a fetch handler with `Bun.serve`, WebSocket routes included: the default entry's `serve()`,
 * its listener named.
 *
 * @param app The server (or any `{ fetch }`).
 * @param options The port and hostname (default `PORT`, `HOSTNAME`, else 8000 on 127.0.0.1); `signal`
 *   to stop; `onListen`, or `quiet` to leave out the line on stderr.
 * @returns The listener, once it is listening.
 * @throws {Error} When the port is in use (its `code` is `EADDRINUSE`), or when this is not Bun.
 *
 * @example
 * ```ts ignore
 * import { createServer } from "@mcplite/sdk";
 * import { serve } from "@mcplite/sdk/bun";
 *
 * const listener = await serve(createServer({ name: "notes", version: "1.0.0" }), { port: 0, quiet: true });
 * console.log(listener.url); // http://127.0.0.1:…
 * await listener.close();
 * ```
 */
export function serve(app: Fetchable, options: Omit<ServeOptions, "httpServer"> = {}): Promise<Listener> {
  if ((globalThis as { Bun?: unknown }).Bun === undefined) {
    return Promise.reject(new Error("@mcplite/sdk/bun serves on Bun only: import serve from @mcplite/sdk elsewhere"));
  }
  return startListener(listen, app, options);
}
