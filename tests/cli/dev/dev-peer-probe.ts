/**
 * Real sockets for the dev page's peer tests, on loopback only (127.0.0.0/8): a test sends nothing
 * off this machine. The page's handler served on 127.0.0.1 and asked for `/_dev` over a raw connection
 * (a client chooses its `Host`; fetch does not let a test set it). Imported by the test on the runtime
 * running it, and by a script it runs on Node 22.
 */
import { connect, createServer } from "node:net";
import { devApi } from "../../../src/cli/dev/dev-api.ts";
import { devHandler } from "../../../src/cli/dev/dev-proxy.ts";
import type { DevSupervisor } from "../../../src/cli/dev/dev-supervisor.ts";
import { isLoopbackAddress } from "../../../src/internal/loopback.ts";
import { serve } from "../../../src/server/serve.ts";

/** A loopback address besides 127.0.0.1: one a listener on 127.0.0.1 does not answer, and one on 0.0.0.0 does. */
export const OTHER_LOOPBACK = "127.0.0.2";

/**
 * Whether this machine can use {@link OTHER_LOOPBACK}: Linux routes all of 127.0.0.0/8 to the loopback
 * interface (RFC 1122 §3.2.1.3); macOS has only 127.0.0.1 unless an alias is added.
 */
export function hasOtherLoopback(): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(0, OTHER_LOOPBACK, () => server.close(() => resolve(true)));
  });
}

/**
 * Sends `GET <path>` to `address:port` with the `Host` given, and reads the status, bounded.
 *
 * @param address A loopback address (any other throws: a test sends nothing off this machine).
 * @returns The status code.
 */
export function statusOf(address: string, port: number, path: string, host: string): Promise<number> {
  if (!isLoopbackAddress(address)) throw new Error(`tests connect to loopback only, not ${address}`);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    let head = "";
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no answer from ${address}:${port}`))), 10_000);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
    socket.on("data", (chunk: string) => {
      head += chunk;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) (clearTimeout(timer), socket.destroy(), resolve(Number(status[1])));
    });
    socket.on("error", (error) => (clearTimeout(timer), reject(error)));
  });
}

/**
 * Serves the dev page's handler (not opened by `--host`) on 127.0.0.1 and asks it for `/_dev` with
 * `Host: 127.0.0.1`: a 200 says the listener told the handler its peer (without one the page is refused).
 *
 * @param httpServer `serve()`'s listener.
 * @returns The status.
 */
export async function probePage(httpServer: "native" | "node:http" = "native"): Promise<number> {
  const api = devApi({ state: () => ({ phase: "starting", generation: 0 }), endpoints: () => [], warm: () => false });
  const local = await serve({ fetch: devHandler({} as DevSupervisor, api) }, {
    hostname: "127.0.0.1",
    port: 0,
    quiet: true,
    httpServer,
  });
  try {
    return await statusOf("127.0.0.1", local.port, "/_dev", `127.0.0.1:${local.port}`);
  } finally {
    await api.close();
    await local.close();
  }
}
