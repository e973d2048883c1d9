/**
 * `client.events.stream()` over stdio (issue 88): two streams on one connection, each hearing its own occurrences (the
 * server names each notification's stream by its request's id, SEP-3415 "Push"; the connection routes it to that
 * request), while calls on the same connection cause them. Our client launches ./stdio-events-server.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createClient } from "../../src/client/mod.ts";
import { createStdioTransport } from "../../src/client/transports/stdio.ts";
import { runtimeCommand } from "../helpers/stdio.ts";

const server = runtimeCommand(fileURLToPath(new URL("./stdio-events-server.ts", import.meta.url)));

/** The first `count` order ids a stream yields, within 15 s. */
async function first(events: AsyncIterable<{ data: unknown }>, count: number): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) {
    seen.push((event.data as { orderId: string }).orderId);
    if (seen.length === count) break;
  }
  return seen;
}

describe("client.events.stream() over stdio", () => {
  it("two streams on one connection: each yields its own caller's occurrences, in order, none of the other's", async () => {
    const client = createClient(createStdioTransport(server));
    const bound = AbortSignal.timeout(15_000);
    try {
      const stream = (customerId: string) =>
        client.events.stream("order.shipped", { arguments: { customerId }, maxAgeMs: 60_000, signal: bound });
      const ada = first(stream("c1"), 2);
      const bob = first(stream("c2"), 2);
      for (const [orderId, customerId] of [["a1", "c1"], ["b1", "c2"], ["a2", "c1"], ["b2", "c2"]]) {
        await client.call("ship", { orderId, customerId });
      }
      assert.deepEqual(await ada, ["a1", "a2"]);
      assert.deepEqual(await bob, ["b1", "b2"]);
    } finally {
      await client.close();
    }
  });
});
