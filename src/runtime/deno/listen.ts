/**
 * `serve()` on Deno: `Deno.serve`, which upgrades WebSockets inside `fetch` (`Deno.upgradeWebSocket`).
 *
 * @module
 */
import type { Bound, Fetchable, Lent, ListenAt } from "../listen-types.ts";
import { closingAfter, onServeError } from "./close-unread.ts";
import { readDeclared } from "./read-declared.ts";

interface DenoLike {
  serve(
    options: {
      port: number;
      hostname: string;
      reusePort?: boolean;
      onListen?: () => void;
      onError?: (error: unknown) => Response;
    },
    handler: (request: Request, info: { remoteAddr: { hostname?: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
}

/** The body a handler that declared no limit is taken to read (a server's default `maxBodyBytes`). */
const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * Binds `app` with `Deno.serve`; `close()` is its graceful `shutdown()`.
 *
 * @param app The fetch handler.
 * @param at The port (0: a free one), the interface, and whether to share the port (`SO_REUSEPORT`).
 * @param lent What it shares with the server (`serve()` lends it).
 * @returns The bound server, once it listens.
 */
export function listen(app: Fetchable, at: ListenAt, lent: Lent): Promise<Bound> {
  const { port, hostname, reusePort } = at;
  const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
  const limit = lent.bodyLimitOf(app) ?? DEFAULT_BODY_LIMIT;
  return new Promise((resolve) => {
    const server = deno.serve({
      port,
      hostname,
      reusePort,
      onListen: () => queueMicrotask(() => resolve({ port: server.addr.port, close: () => server.shutdown() })),
      onError: onServeError,
    }, (request, info) => {
      const address = info.remoteAddr.hostname; // for the per-caller budgets (`peer.ts`)
      if (address !== undefined) lent.recordPeer(request, address);
      lent.lendReader(request, readDeclared); // a large body read into one buffer (`read-declared.ts`)
      // A refusal of an unread body is sent so that Deno does close the connection (`close-unread.ts`).
      const answer = app.fetch(request);
      return answer instanceof Promise
        ? answer.then((response) => closingAfter(request, response, limit, lent.unrefTimer))
        : closingAfter(request, answer, limit, lent.unrefTimer);
    });
  });
}
