/**
 * This package over a WebSocket: `webSocketBinding()` with the `add` tool, served by `serve()` on the
 * bench's runtime; prints its port on stdout, then serves until its stdin closes.
 *
 * @module
 */
import { createServer, defineTool, serve } from "../../../mod.ts";
import { webSocketBinding } from "../../../src/websocket/mod.ts";
import { AddInput } from "../common.ts";

const server = createServer({ name: "bench", version: "1.0.0", bindings: [webSocketBinding()] })
  .tool(defineTool("add").describe("Adds two numbers").input(AddInput).handle(({ a, b }) => ({ sum: a + b })));
const listener = await serve(server, { port: 0, quiet: true });
console.log(listener.port);
