/**
 * One benchmarked server on 127.0.0.1, for the loopback runs: `Bun.serve` or `Deno.serve` on port 0,
 * loading only the implementation named on the command line (so each process's RSS is its own). Prints
 * `LISTENING <port>` once ready; `bench/loopback.ts` stops it.
 *
 *   bun bench/loopback-server.ts ours   ·   deno run -A bench/loopback-server.ts tmcp
 *
 * @module
 */
import process from "node:process";
import type { Fetch } from "./servers/common.ts";

const IMPLS = ["floor", "floor-reads", "ours", "mcp-lite", "tmcp", "sdk"];

const impl = process.argv[2] ?? "";
if (!IMPLS.includes(impl)) throw new Error(`usage: loopback-server.ts <${IMPLS.join("|")}>`);

type Serve = (port: number) => void;
const g = globalThis as unknown as {
  Bun?: { serve(o: { hostname: string; port: number; fetch: Fetch }): { port: number } };
  Deno?: {
    serve(o: { hostname: string; port: number; onListen(a: { port: number }): void }, fetch: Fetch): unknown;
  };
};

// A server whose Host check compares `host:port` is built once the port is known: start on a
// trampoline, then swap the handler in.
let handler: Fetch = () => Promise.resolve(new Response("starting", { status: 503 }));
const trampoline: Fetch = (request) => handler(request);
const ready: Serve = async (port) => {
  const module = await import(`./servers/${impl}.ts`) as { create(port?: number): Fetch };
  handler = module.create(port);
  console.log(`LISTENING ${port}`);
};

if (g.Bun) {
  const server = g.Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: trampoline });
  ready(server.port);
} else if (g.Deno) {
  g.Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => ready(port) }, trampoline);
} else {
  throw new Error("loopback-server.ts runs under Bun or Deno");
}
