/**
 * `@mcplite/sdk/grpc`: the MCP-lite gRPC binding (MCP-lite spec v0.042 §5), the `mcplite.MCPLite` service over the
 * same tools as every other wire, served two ways: `grpcBinding()` puts Connect and gRPC-Web on the server's own
 * `fetch` (Deno.serve, Bun.serve, Workers; plain gRPC is refused with 415, fetch cannot send trailers), and
 * `serveGrpc(server, { port })` serves real gRPC, gRPC-Web and Connect over cleartext HTTP/2 (`node:http2`) on Bun
 * and Node (Deno for development). Only this export loads protobuf and Connect: a server that never imports it never
 * pays for them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as v from "valibot";
 * import { createServer, defineTool } from "../../../mod.ts";
 * import { grpcBinding } from "./mod.ts";
 *
 * const echo = defineTool("echo")
 *   .input(v.object({ text: v.string() }))
 *   .handle(({ text }) => text);
 * const server = createServer({ name: "echo", version: "1.0.0", bindings: [grpcBinding()] }).tool(echo);
 * // Deno.serve(server.fetch) · Bun.serve({ fetch: server.fetch }) · and for gRPC: await serveGrpc(server, { port: 50051 })
 *
 * const response = await server.fetch(new Request("http://localhost/mcplite.MCPLite/GetTools", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: "{}",
 * }));
 * const { tools } = await response.json();
 * assert.equal(tools[0].name, "echo");
 * ```
 *
 * @module
 */
export { grpcBinding } from "./handler.ts";
export { serveGrpc } from "./serve-grpc.ts";
export type { GrpcListener, GrpcServable, ServeGrpcOptions } from "./serve-grpc.ts";
export type { GrpcRoutesOptions } from "./service.ts";
export { createGrpcRoutes } from "./service.ts";
// The generated service and messages, for Connect clients (`createClient(MCPLite, transport)`).
export { MCPLite, ResponseType, ToolRequestSchema, ToolResponseSchema, ToolsListSchema } from "./messages.ts";
export type { ResponseMeta, ToolRequest, ToolResponse, ToolsList } from "./messages.ts";
