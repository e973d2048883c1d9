/**
 * The dev page's handler served on real sockets, for the peer tests: one listener on 127.0.0.1 and one
 * on an address of this machine that is not loopback, each asked for `/_dev` with `Host: 127.0.0.1` over
 * a raw connection (a client chooses its `Host`; fetch does not let a test set it). Imported by the test
 * on the runtime running it, and by a script it runs on Node 22.
 */
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { devApi } from "../../../src/cli/dev/dev-api.ts";
import { devHandler } from "../../../src/cli/dev/dev-proxy.ts";
import type { DevSupervisor } from "../../../src/cli/dev/dev-supervisor.ts";
import { serve } from "../../../src/server/serve.ts";

/** An IPv4 address of this machine that is not loopback; undefined when it has none. */
export function otherAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === "IPv4" && !address.internal) return address.address;
  }
  return undefined;
}

/**
 * Sends `GET <path>` to `address:port` with the `Host` given, and reads the status, bounded.
 *
 * @returns The status code.
 */
export function statusOf(address: string, port: number, path: string, host: string): Promise<number> {
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
 * Serves the dev page's handler (not opened by `--host`) on 127.0.0.1 and on `other`, and asks each for
 * `/_dev` with `Host: 127.0.0.1`.
 *
 * @param other A non-loopback address of this machine.
 * @param httpServer `serve()`'s listener.
 * @returns The status from a loopback peer, and from a peer at `other`.
 */
export async function probePage(
  other: string,
  httpServer: "native" | "node:http" = "native",
): Promise<{ loopback: number; other: number }> {
  const api = devApi({ state: () => ({ phase: "starting", generation: 0 }), endpoints: () => [], warm: () => false });
  const handler = { fetch: devHandler({} as DevSupervisor, api) };
  const local = await serve(handler, { hostname: "127.0.0.1", port: 0, quiet: true, httpServer });
  const wide = await serve(handler, { hostname: other, port: 0, quiet: true, httpServer });
  try {
    return {
      loopback: await statusOf("127.0.0.1", local.port, "/_dev", `127.0.0.1:${local.port}`),
      other: await statusOf(other, wide.port, "/_dev", `127.0.0.1:${wide.port}`),
    };
  } finally {
    await api.close();
    await local.close();
    await wide.close();
  }
}
