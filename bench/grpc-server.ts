/**
 * One gRPC server over cleartext HTTP/2 on 127.0.0.1, for the gRPC loopback runs (scenario 4). Runs
 * under Bun, and under Node 20 from the bundle `bench/loopback.ts` builds. Prints `LISTENING <port>`.
 *
 * - `ours`: `serveGrpc(server)`, the `mcplite.MCPLite` service over the same `add` tool.
 * - `ours-connect`: the same with every call through Connect's Node adapter (no direct unary path).
 * - `floor`: a bare `node:http2` handler answering the bytes `ours` answers (`servers/grpc-floor.ts`).
 *
 *   bun bench/grpc-server.ts ours
 *
 * @module
 */
import { createServer as createHttp2Server } from "node:http2";
import process from "node:process";
import { createServer, defineTool } from "../mod.ts";
import { serveGrpc } from "../src/bindings/grpc/mod.ts";
import { NO_DIRECT_PATH } from "../src/bindings/grpc/serve-grpc.ts";
import { AddInput } from "./servers/common.ts";
import { grpcFloorHandler } from "./servers/grpc-floor.ts";

const impl = process.argv[2];

if (impl === "ours" || impl === "ours-connect") {
  const add = defineTool("add")
    .describe("Adds two numbers")
    .input(AddInput)
    .handle(({ a, b }) => ({ sum: a + b }));
  const listener = await serveGrpc(createServer({ name: "bench", version: "1.0.0" }).tool(add), {
    port: 0,
    [NO_DIRECT_PATH]: impl === "ours-connect",
  });
  console.log(`LISTENING ${listener.port}`);
} else if (impl === "floor") {
  const server = createHttp2Server(grpcFloorHandler());
  server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${(server.address() as { port: number }).port}`));
} else {
  throw new Error("usage: grpc-server.ts <ours|ours-connect|floor>");
}
