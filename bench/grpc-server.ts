/**
 * One gRPC server over cleartext HTTP/2 on 127.0.0.1, for the gRPC loopback runs (scenario 4). Runs
 * under Bun, and under Node 20 from the bundle `bench/loopback.ts` builds. Prints `LISTENING <port>`.
 *
 * - `ours`: `serveGrpc(server)`, the `mcplite.MCPLite` service over the same `add` tool.
 * - `ours-connect`: the same with every call through Connect's Node adapter (no direct unary path).
 * - `floor`: a bare `node:http2` handler that reads the gRPC frame, decodes the `ToolRequest`, and
 *   answers a fixed `ToolResponse` frame with `grpc-status: 0`: what the runtime's HTTP/2 and protobuf
 *   cost, with no service around them. The frame is the one `ours` answers (its `meta` too, with the
 *   timestamp of the server's start), so both send the same bytes.
 *
 *   bun bench/grpc-server.ts ours
 *
 * @module
 */
import { createServer as createHttp2Server } from "node:http2";
import process from "node:process";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createServer, defineTool } from "../mod.ts";
import { serveGrpc, ToolRequestSchema, ToolResponseSchema } from "../src/bindings/grpc/mod.ts";
import { NO_DIRECT_PATH } from "../src/bindings/grpc/node.ts";
import { AddInput } from "./servers/common.ts";

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
  const answer = toBinary(
    ToolResponseSchema,
    create(ToolResponseSchema, {
      result: { content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } },
      meta: { timestamp: BigInt(Date.now()), serverVersion: "1.0.0" },
    }),
  );
  const frame = new Uint8Array(5 + answer.byteLength);
  new DataView(frame.buffer).setUint32(1, answer.byteLength);
  frame.set(answer, 5);
  const server = createHttp2Server((request, response) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("end", () => {
      const body = chunks.length === 1 ? chunks[0] : new Uint8Array(Buffer.concat(chunks));
      fromBinary(ToolRequestSchema, body.subarray(5));
      response.writeHead(200, { "content-type": "application/grpc" });
      response.addTrailers({ "grpc-status": "0" });
      response.end(frame);
    });
  });
  server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${(server.address() as { port: number }).port}`));
} else {
  throw new Error("usage: grpc-server.ts <ours|ours-connect|floor>");
}
