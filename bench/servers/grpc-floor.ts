/**
 * The gRPC floor of scenario 4: a bare `node:http2` request handler that reads the gRPC frame, decodes the
 * `ToolRequest`, and answers a fixed `ToolResponse` frame with `grpc-status: 0` — the message `serveGrpc()`
 * answers `add(1, 2)` with (its `meta` too, with the timestamp of the server's start), so both send the
 * same bytes. What the runtime's HTTP/2 and protobuf cost, with no service around them.
 *
 * @module
 */
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ToolRequestSchema, ToolResponseSchema } from "../../src/bindings/grpc/mod.ts";

/**
 * Makes the floor's request handler (for `createServer()` of `node:http2`).
 *
 * @returns The handler.
 */
export function grpcFloorHandler(): (request: Http2ServerRequest, response: Http2ServerResponse) => void {
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
  return (request, response) => {
    const chunks: Uint8Array[] = [];
    request.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    request.on("end", () => {
      const body = chunks.length === 1 ? chunks[0] : new Uint8Array(Buffer.concat(chunks));
      fromBinary(ToolRequestSchema, body.subarray(5));
      response.writeHead(200, { "content-type": "application/grpc" });
      response.addTrailers({ "grpc-status": "0" });
      response.end(frame);
    });
  };
}
