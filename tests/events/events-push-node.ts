/**
 * Run by Node 22 (tests/events/events-push-node22.test.ts): SEP-3415's push on Node, both ends. Our server served by
 * `serve()` on node:http, our client's `client.events.stream()` over real HTTP: an occurrence kept from before the
 * stream (`maxAgeMs`), one emitted while it is live, then a second stream from the last cursor after one emitted while
 * none was open; what each stream yielded printed as JSON. Over MCP, or over MCP-lite (SSE at `/rpc`) with `mcp-lite`.
 */
import process from "node:process";
import { createServer, serve } from "../../mod.ts";
import { createClient } from "../../src/client/mod.ts";
import { SECRET, shipped } from "./shipped-event.ts";

const server = createServer({ name: "shop", version: "1.0.0", secret: SECRET, events: { heartbeatMs: 300 } })
  .event(shipped);
const served = await serve(server, { port: 0, hostname: "127.0.0.1", quiet: true });
const lite = process.argv[2] === "mcp-lite";
const client = lite
  ? createClient<typeof server>(served.url, { transport: "mcp-lite" })
  : createClient<typeof server>(`${served.url}/mcp`, { transport: "mcp" });
const order = (orderId: string) => ({ orderId, customerId: "c1" });
const bound = AbortSignal.timeout(20_000); // every stream of this script ends within it
const first: string[] = [], second: string[] = [];
let cursor = "";
try {
  await server.emit("order.shipped", order("before"));
  for await (
    const event of client.events.stream("order.shipped", {
      arguments: { customerId: "c1" },
      maxAgeMs: 60_000,
      signal: bound,
    })
  ) {
    first.push(event.data.orderId);
    cursor = event.cursor;
    if (first.length === 1) await server.emit("order.shipped", order("live"));
    else break; // leaving the loop ends the request
  }
  await server.emit("order.shipped", order("meanwhile"));
  for await (
    const event of client.events.stream("order.shipped", { arguments: { customerId: "c1" }, cursor, signal: bound })
  ) {
    second.push(event.data.orderId);
    if (second.length === 1) await server.emit("order.shipped", order("after"));
    else break;
  }
} finally {
  // Both streams ended by their client: a graceful close resolves (bounded here, so that a hang is reported, not waited).
  const closing = served.close().then(() => true);
  const closed = await Promise.race([closing, new Promise<false>((resolve) => setTimeout(resolve, 5_000, false))]);
  process.stdout.write(
    JSON.stringify({ runtime: process.version, wire: lite ? "mcp-lite" : "mcp", first, second, closed }),
  );
  process.exit(0);
}
