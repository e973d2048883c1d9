/**
 * What every benchmarked server shares: the handler type, the `add` tool's input schema and the size
 * of the streaming tool's output.
 *
 * @module
 */
import * as v from "valibot";

/** A fetch handler. */
export type Fetch = (request: Request) => Promise<Response>;

/** The `add` tool's input, the same valibot schema for every server. */
export const AddInput = v.object({ a: v.number(), b: v.number() });

/** How many chunks, and how big, the streaming tool sends. */
export const STREAM = { chunks: 64, size: 1024 } as const;

/** One chunk of the streaming tool: `STREAM.size` bytes ending in a newline. */
export const CHUNK: string = "x".repeat(STREAM.size - 1) + "\n";

/** The host names a server accepts: the loopback names, and `127.0.0.1:port` once listening. */
export function loopbackHosts(port?: number): string[] {
  return port === undefined
    ? ["localhost", "127.0.0.1"]
    : ["localhost", "127.0.0.1", `127.0.0.1:${port}`, `localhost:${port}`];
}
