/**
 * A stdio server with an event (tests/events/client-stream-stdio.test.ts launches it): `order.shipped`, emitted by its
 * tool `ship`, so that a client on the other end of the pipe both streams the event and causes its occurrences.
 */
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";
import { SECRET, shipped } from "./shipped-event.ts";

const server = createServer({ name: "shop", version: "1.0.0", secret: SECRET, events: { heartbeatMs: 300 } })
  .event(shipped)
  .tool(
    defineTool("ship").describe("Ships an order").input(v.object({ orderId: v.string(), customerId: v.string() }))
      .handle(async (order): Promise<string> => (await server.emit("order.shipped", order)).eventId),
  );

await serveStdio(server);
